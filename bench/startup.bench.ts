/**
 * Start-up time of the two stand-ins, as `npm run start:travel-api` and `npm run start:identity` start
 * them: each run spawns the server as its own Node process with no configuration but a free port and a
 * fresh, empty temporary data folder (so every run is a first start: the travel API seeds its consumer
 * registry, the identity platform generates its RSA signing key), and measures the wall-clock time from
 * spawning to the first HTTP answer (polled every 10 ms), plus the CPU time the process had used by
 * then (a figure that depends less on how busy the machine is). Each run ends with SIGTERM, which must
 * close the server gracefully (exit code 0). Runs are sequential, so the stand-ins do not compete.
 *
 * Prints median and max per stand-in against the 3 s target and exits non-zero when a median is above
 * it, or when a start fails, does not answer within --timeout, or does not exit 0 on SIGTERM.
 *
 * Flags: --runs <n per stand-in> (default 5), --timeout <seconds per start> (default 30).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { printTable } from './support/print-table.ts';

const TARGET_MS = 3000;
const ROOT = path.resolve(import.meta.dirname, '..');

interface StandIn {
  name: string;
  script: string;
  /** The environment of a start with no configuration but a port and a data folder. */
  env: (port: number, dataDir: string) => Record<string, string>;
  /** A request the server answers once it is up (any status counts as an answer). */
  probePath: string;
}

const STAND_INS: StandIn[] = [
  {
    name: 'travel-api',
    script: 'upstream/travel-api/run-travel-api.ts',
    env: (port, dataDir) => ({ TRAVEL_API_PORT: String(port), TRAVEL_API_DATA_DIR: dataDir }),
    probePath: '/v1/app/update-check',
  },
  {
    name: 'identity',
    script: 'upstream/identity/run-identity.ts',
    env: (port, dataDir) => ({ IDENTITY_PORT: String(port), IDENTITY_DATA_DIR: dataDir }),
    probePath: '/.well-known/openid-configuration',
  },
];

interface Run {
  firstAnswerMs: number;
  cpuMs: number | null;
}

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    timeout: { type: 'string', default: '30' },
  },
});
const runs = Math.max(1, Math.trunc(Number(values.runs)));
const timeoutMs = Math.max(1, Number(values.timeout)) * 1000;

const rows: string[][] = [];
const failures: string[] = [];
for (const standIn of STAND_INS) {
  const measured: Run[] = [];
  for (let index = 0; index < runs; index++) {
    try {
      measured.push(await startOnce(standIn));
    } catch (error) {
      failures.push(`${standIn.name} run ${index + 1}: ${(error as Error).message}`);
    }
  }
  if (measured.length === 0) {
    rows.push([standIn.name, `0/${runs}`, '-', '-', '-', formatMs(TARGET_MS), 'FAIL']);
    continue;
  }
  const wall = measured.map((run) => run.firstAnswerMs);
  const cpu = measured.flatMap((run) => (run.cpuMs === null ? [] : [run.cpuMs]));
  const withinTarget = median(wall) <= TARGET_MS;
  if (!withinTarget) failures.push(`${standIn.name}: median ${formatMs(median(wall))} is above the target`);
  rows.push([
    standIn.name,
    `${measured.length}/${runs}`,
    formatMs(median(wall)),
    formatMs(Math.max(...wall)),
    cpu.length > 0 ? formatMs(median(cpu)) : '-',
    formatMs(TARGET_MS),
    withinTarget && measured.length === runs ? 'ok' : 'FAIL',
  ]);
}

console.log(
  `Start-up to first answer, ${runs} runs per stand-in, fresh data folder each run (Node ${process.versions.node}, ${os.availableParallelism()} cores, load average ${os
    .loadavg()[0]
    ?.toFixed(1)}):\n`,
);
printTable(['stand-in', 'runs', 'median', 'max', 'CPU median', 'target (median)', 'result'], rows);
if (failures.length > 0) {
  console.error(`\n${failures.join('\n')}`);
  process.exit(1);
}

/** One start: spawn, poll until the first answer, then SIGTERM and wait for a graceful exit. */
async function startOnce(standIn: StandIn): Promise<Run> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `wayfare-startup-bench-${standIn.name}-`));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, standIn.script)], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? '', ...standIn.env(port, dataDir) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const deadline = started + timeoutMs;
    let answered = false;
    while (!answered) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${stderr.trim()}`);
      if (performance.now() > deadline) throw new Error(`no answer within ${formatMs(timeoutMs)}`);
      answered = await answers(`http://localhost:${port}${standIn.probePath}`);
      if (!answered) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const firstAnswerMs = performance.now() - started;
    const cpuMs = cpuMsOf(child.pid);
    child.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000).unref()),
    ]);
    if (code !== 0) throw new Error(`SIGTERM ended it with ${code}, not a graceful exit 0`);
    return { firstAnswerMs, cpuMs };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** User plus system CPU time a process has used so far, from /proc (Linux only; null elsewhere). */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
