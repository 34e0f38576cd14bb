/**
 * Starts the fleet for a benchmark the way an operator does (`scripts/start-fleet.ts`), with the demo
 * admin API, on free loopback ports, and reads what it prints: the front's origin and authority, each
 * BFF instance's port and the travel API's origin and authority. Finds the processes behind them in /proc
 * (the BFF whose PORT is an instance's, the nginx processes), so that a benchmark can read their memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../scripts/service-group.ts';

export interface BenchFleet {
  appOrigin: string;
  frontCaFile: string;
  bffPorts: number[];
  travelApiOrigin: string;
  travelApiCaFile: string;
  /** Every line the fleet printed so far. */
  lines: string[];
  /** The fleet's process tree: the pid of the BFF on each port, and of every nginx process. */
  pids(): { bffs: Array<number | undefined>; nginx: number[] };
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function descendants(rootPid: number): number[] {
  const all = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
  const parents = new Map(all.map((pid) => [pid, parentOf(pid)]));
  const found = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (parent !== undefined && found.has(parent) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  found.delete(rootPid);
  return [...found];
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Resident memory of a process in bytes (VmRSS), or undefined when it is gone. */
export function residentBytes(pid: number): number | undefined {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`));
  return match ? Number(match[1]) * 1024 : undefined;
}

export async function startBenchFleet(timeoutMs = 180_000): Promise<BenchFleet> {
  const fleet: ChildProcess = spawn(process.execPath, [path.join(root, 'scripts/start-fleet.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      WAYFARE_FLEET_PORT: String(await freePort()),
      WAYFARE_FLEET_TRAVEL_API_PORT: String(await freePort()),
      WAYFARE_FLEET_IDENTITY_PORT: String(await freePort()),
      WAYFARE_FLEET_PROMETHEUS_PORT: String(await freePort()),
      WAYFARE_DEMO: '1',
      LOG_LEVEL: 'warn',
    },
  });
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => fleet.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The fleet did not start in time')), timeoutMs);
    createInterface({ input: fleet.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Wayfare fleet is ready at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`The fleet stopped:\n${lines.slice(-20).join('\n')}`)));
  });
  await ready;
  const find = (pattern: RegExp): RegExpExecArray => {
    for (const line of lines) {
      const match = pattern.exec(line);
      if (match) return match;
    }
    throw new Error(`The fleet did not print ${pattern}`);
  };
  const front = find(/front \(open this\): (\S+), its certificate signed by a local authority: (\S+)/);
  const travelApi = find(/travel API: (\S+) \(HTTPS\/h2\), its authority: (\S+)/);
  const bffPorts = lines.flatMap((line) => {
    const match = /\[fleet\] bff-\d+: http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
    return match ? [Number(match[1])] : [];
  });
  return {
    appOrigin: front[1]!,
    frontCaFile: front[2]!,
    bffPorts,
    travelApiOrigin: travelApi[1]!,
    travelApiCaFile: travelApi[2]!,
    lines,
    pids() {
      const tree = descendants(fleet.pid!);
      const portOf = (pid: number) =>
        /(?:^|\0)PORT=(\d+)(?:\0|$)/.exec(read(`/proc/${pid}/environ`))?.[1] ?? undefined;
      const nodes = tree.filter((pid) => read(`/proc/${pid}/cmdline`).includes('bff/server.ts'));
      return {
        bffs: bffPorts.map((port) => nodes.find((pid) => portOf(pid) === String(port))),
        nginx: tree.filter((pid) => read(`/proc/${pid}/comm`).trim() === 'nginx'),
      };
    },
    async stop() {
      fleet.kill('SIGTERM');
      await exited;
    },
  };
}
