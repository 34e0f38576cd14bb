/**
 * The BFF's signed gateway against the travel API stand-in, on loopback: a small GET
 * (GET /v1/app/update-check) and a 64 KiB POST (POST /v1/guest-sessions with a 64 KiB JSON body),
 * each called in these ways in the same run:
 *   direct      the stand-in itself, with signature headers made once up front (valid inside the window)
 *   reply-from  an unsigned @fastify/reply-from proxy passing those headers through
 *   signed bytes the least a signed proxy can do: the same reply-from proxy, holding the body until all
 *               of it is in (the signature covers its hash, and goes in a header before the body), then
 *               hashing and signing those bytes; nothing parsed, validated or serialised
 *   gateway     the BFF's travel API client: serialise once, sign those bytes, send, parse, validate
 *   traced      the same gateway with the BFF's tracing and metrics on (shared/observability) as
 *               `npm start` runs it, no collector configured: trace ids for the log lines and the
 *               traceparent, no span recorded, the request metric and the undici metric
 *   exported    the same, exporting over OTLP/HTTP to a loopback collector this script runs, with the
 *               sampler a production fleet would use (parentbased_traceidratio, 10% of traces recorded)
 * and reports requests per second, p50/p99 latency, the latency each proxy adds over direct, the CPU
 * time the proxy process spends per request (steadier than throughput on a shared machine), and the
 * throughput ratios. The stand-in and the proxies run in child processes, so autocannon does not share
 * their event loops.
 *
 * Flags: --duration <seconds per run> (default 5), --rounds <n> (default 2), --connections <n> (default 10).
 *
 * `--side-by-side`: the CPU cost of one mode against another, steadier than the interleaved runs when other
 * work shares the machine. Two proxy processes run at the same time, each sent `--requests <n>` calls
 * (default 5000) by an autocannon of its own (5 connections), `--rounds` times (default 3 here too), so
 * that load from elsewhere falls on both alike; it prints the CPU per request of each round and their
 * ratio. `--compare <a>,<b>` names the two modes (gateway, traced, reply-from or signed-bytes; default
 * gateway,traced: what the instrumentation costs), `--call small|large` the call (default small).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';
import pino from 'pino';
import { z } from 'zod';
import { signedHeaders } from '#shared/upstream/sign-request.ts';
import { observability } from '#shared/observability/fastify-observability.ts';
import { createTravelApiClient } from '../bff/travel-api/travel-api-client.ts';
import { printTable } from './support/print-table.ts';

const CONSUMER = 'wayfare-web';
const SECRET = 'bench-consumer-secret-000000000001';
const SMALL_PATH = '/v1/app/update-check';
const LARGE_PATH = '/v1/guest-sessions';
const LARGE_BODY = JSON.stringify({ padding: 'x'.repeat(64 * 1024 - 14) });

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
/** A run, with the CPU time the proxy process spent per request (null for calls that bypass it). */
type Measured = AutocannonResult & { cpuPerRequestUs: number | null };
type Autocannon = (options: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration?: number;
  amount?: number;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** The modes `--side-by-side` can compare. */
const SIDE_BY_SIDE_MODES = ['gateway', 'traced', 'reply-from', 'signed-bytes'] as const;
type SideBySideMode = (typeof SIDE_BY_SIDE_MODES)[number];
/** Which of a proxy process's servers answers each mode (the traced one is a process of its own). */
const SERVER_OF_MODE = {
  gateway: 'gateway',
  traced: 'gateway',
  'reply-from': 'proxy',
  'signed-bytes': 'signedBytes',
} as const satisfies Record<SideBySideMode, string>;

/** The sampler ratio of the exported mode. */
const EXPORTED_RATIO = '0.1';

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string' },
    'side-by-side': { type: 'boolean', default: false },
    requests: { type: 'string', default: '5000' },
    compare: { type: 'string', default: 'gateway,traced' },
    call: { type: 'string', default: 'small' },
  },
});

if (values.serve) await serveProxies(values.serve);
else if (values['side-by-side'])
  await runSideBySide(
    Number(values.requests),
    Number(values.rounds ?? '3'),
    sideBySideModes(values.compare),
    values.call === 'large' ? 'large' : 'small',
  );
else await runBenchmark(Number(values.duration), Number(values.connections), Number(values.rounds ?? '2'));

/** Child process: the signed gateway and the unsigned reply-from proxy in front of the stand-in. */
async function serveProxies(standIn: string): Promise<void> {
  const client = createTravelApiClient({
    baseUrl: standIn,
    consumerSlug: CONSUMER,
    consumerSecret: SECRET,
    timeoutMs: 10_000,
    retryBudgetMs: 0,
    logger: pino({ level: 'silent' }),
  });
  const anyJson = z.unknown();
  const gateway = Fastify({ bodyLimit: 1024 * 1024 });
  if (process.env.WAYFARE_BENCH_INSTRUMENTED === '1')
    await gateway.register(observability, { serviceName: 'wayfare-bff' });
  gateway.get('/__cpu', () => process.cpuUsage());
  gateway.get('/small', async (request) =>
    client.request({
      method: 'GET',
      path: SMALL_PATH,
      auth: { kind: 'none' },
      requestId: request.id,
      schema: anyJson,
    }),
  );
  gateway.post('/large', async (request, reply) => {
    const body = await client.request({
      method: 'POST',
      path: LARGE_PATH,
      body: request.body,
      auth: { kind: 'none' },
      requestId: request.id,
      schema: anyJson,
    });
    return reply.code(201).send(body);
  });

  const proxy = Fastify({ bodyLimit: 1024 * 1024 });
  await proxy.register(replyFrom, { base: standIn });
  proxy.removeAllContentTypeParsers();
  proxy.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  proxy.get('/small', (_request, reply) => reply.from(SMALL_PATH));
  proxy.post('/large', (_request, reply) => reply.from(LARGE_PATH));

  // The least a signed proxy can do: the unsigned proxy, holding the body's bytes until they are all
  // in, then hashing and signing them; nothing parsed, validated or serialised.
  const signedBytes = Fastify({ bodyLimit: 1024 * 1024 });
  await signedBytes.register(replyFrom, { base: standIn });
  signedBytes.removeAllContentTypeParsers();
  signedBytes.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, payload, done) =>
    done(null, payload),
  );
  const signedFrom = (method: 'GET' | 'POST', upstreamPath: string, body: Buffer | undefined) => ({
    // The bytes as they came, under the type they came with (without a type, reply-from writes JSON).
    ...(body ? { body, contentType: 'application/json' } : {}),
    rewriteRequestHeaders: (_request: unknown, headers: Record<string, string | string[] | undefined>) => ({
      ...headers,
      ...signedHeaders({ consumer: CONSUMER, secret: SECRET, method, path: upstreamPath, body }),
    }),
  });
  signedBytes.get('/small', (_request, reply) =>
    reply.from(SMALL_PATH, signedFrom('GET', SMALL_PATH, undefined)),
  );
  signedBytes.post('/large', (request, reply) =>
    reply.from(LARGE_PATH, signedFrom('POST', LARGE_PATH, request.body as Buffer)),
  );

  const urls = {
    gateway: await gateway.listen({ host: '127.0.0.1', port: 0 }),
    proxy: await proxy.listen({ host: '127.0.0.1', port: 0 }),
    signedBytes: await signedBytes.listen({ host: '127.0.0.1', port: 0 }),
  };
  process.stdout.write(`${JSON.stringify(urls)}\n`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void Promise.all([gateway.close(), proxy.close(), signedBytes.close(), client.close()]).then(() =>
        process.exit(0),
      );
    });
  }
}

/** The travel API stand-in in a child process, answering on a free loopback port: its origin. */
async function startStandIn(children: ChildProcess[], dataDir: string): Promise<string> {
  const port = await freePort();
  const standIn = `http://127.0.0.1:${port}`;
  startProcess([path.join(import.meta.dirname, '../upstream/travel-api/run-travel-api.ts')], children, {
    TRAVEL_API_HOST: '127.0.0.1',
    TRAVEL_API_PORT: String(port),
    TRAVEL_API_DATA_DIR: dataDir,
    TRAVEL_API_LOG_LEVEL: 'warn',
    TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG: CONSUMER,
    TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: SECRET,
    TRAVEL_API_RATE_LIMIT_MAX: '100000000',
    TRAVEL_API_RATE_LIMIT_SEARCH_MAX: '100000000',
  });
  await waitUntilAnswering(`${standIn}${SMALL_PATH}`);
  return standIn;
}

/** A child process serving the gateway and the reply-from proxy (serveProxies) with `env` added. */
async function startProxies(
  standIn: string,
  children: ChildProcess[],
  env: Record<string, string> = {},
): Promise<{ gateway: string; proxy: string; signedBytes: string }> {
  const line = await firstLine(startProcess([import.meta.filename, '--serve', standIn], children, env));
  return JSON.parse(line) as { gateway: string; proxy: string; signedBytes: string };
}

/** The CPU time (user and system, µs) the process serving `gatewayUrl` has used so far. */
async function cpuOf(gatewayUrl: string): Promise<number> {
  const usage = (await (await fetch(`${gatewayUrl}/__cpu`)).json()) as NodeJS.CpuUsage;
  return usage.user + usage.system;
}

async function runBenchmark(duration: number, connections: number, rounds: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-gateway-bench-'));
  const children: ChildProcess[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    const standIn = await startStandIn(children, dataDir);
    const proxies = await startProxies(standIn, children);
    const instrumented = await startProxies(standIn, children, { WAYFARE_BENCH_INSTRUMENTED: '1' });
    const collector = await startCollector();
    closers.push(collector.close);
    const exported = await startProxies(standIn, children, {
      WAYFARE_BENCH_INSTRUMENTED: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: EXPORTED_RATIO,
    });

    const rows: string[][] = [];
    const onOffRows: string[][] = [];
    const summary: string[] = [];
    for (const { name, method, upstreamPath, body } of [
      { name: 'small GET', method: 'GET', upstreamPath: SMALL_PATH, body: undefined },
      { name: '64 KiB POST', method: 'POST', upstreamPath: LARGE_PATH, body: LARGE_BODY },
    ]) {
      const localPath = method === 'GET' ? '/small' : '/large';
      const signed = () => ({
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...signedHeaders({ consumer: CONSUMER, secret: SECRET, method, path: upstreamPath, body }),
      });
      const run = (url: string, headers: Record<string, string>) =>
        autocannon({ url, method, headers, ...(body ? { body } : {}), connections, duration });

      const unsigned: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
      const measured = async (url: string, headers: Record<string, string>, throughProxies: boolean) => {
        const gatewayOf = [instrumented.gateway, exported.gateway].find((one) => url.startsWith(one));
        const cpuOfProxies = () => cpuOf(gatewayOf ?? proxies.gateway);
        const before = throughProxies ? await cpuOfProxies() : 0;
        const result = await run(url, headers);
        const cpu = throughProxies ? (await cpuOfProxies()) - before : 0;
        return {
          ...result,
          cpuPerRequestUs: throughProxies ? cpu / Math.max(1, result.requests.total) : null,
        };
      };
      const modes = {
        direct: () => measured(`${standIn}${upstreamPath}`, signed(), false),
        proxied: () => measured(`${proxies.proxy}${localPath}`, signed(), true),
        signedBytes: () => measured(`${proxies.signedBytes}${localPath}`, unsigned, true),
        gateway: () => measured(`${proxies.gateway}${localPath}`, unsigned, true),
        instrumented: () => measured(`${instrumented.gateway}${localPath}`, unsigned, true),
        exported: () => measured(`${exported.gateway}${localPath}`, unsigned, true),
      };
      await modes.proxied();
      await modes.signedBytes();
      await modes.gateway();
      await modes.instrumented();
      await modes.exported();
      const results: Record<keyof typeof modes, Measured[]> = {
        direct: [],
        proxied: [],
        signedBytes: [],
        gateway: [],
        instrumented: [],
        exported: [],
      };
      // Interleaved rounds, so that load from elsewhere on the machine falls on every mode alike.
      for (let round = 0; round < rounds; round += 1) {
        for (const mode of [
          'direct',
          'proxied',
          'signedBytes',
          'gateway',
          'instrumented',
          'exported',
        ] as const)
          results[mode].push(await modes[mode]());
      }
      const direct = combine(results.direct);
      const proxied = combine(results.proxied);
      const signedBytes = combine(results.signedBytes);
      const gateway = combine(results.gateway);
      const traced = combine(results.instrumented);
      const exporting = combine(results.exported);

      for (const [mode, result] of [
        ['direct', direct],
        ['reply-from (unsigned)', proxied],
        ['signed bytes (reply-from, signing)', signedBytes],
        ['gateway (signed)', gateway],
        ['gateway, traced and measured', traced],
        [`gateway, ${Number(EXPORTED_RATIO) * 100}% of traces exported`, exporting],
      ] as const) {
        const failures = result.non2xx + result.errors + result.timeouts;
        rows.push([
          name,
          mode,
          result.requests.average.toFixed(0),
          `${result.latency.p50} ms`,
          `${result.latency.p99} ms`,
          mode === 'direct'
            ? '-'
            : `${result.latency.p50 - direct.latency.p50} / ${result.latency.p99 - direct.latency.p99} ms`,
          result.cpuPerRequestUs === null ? '-' : `${result.cpuPerRequestUs.toFixed(0)} µs`,
          String(failures),
        ]);
      }
      // What the instrumentation costs: each instrumented mode against the signed gateway of the same run.
      for (const [mode, result] of [
        ['gateway (signed)', gateway],
        ['traced and measured', traced],
        [`${Number(EXPORTED_RATIO) * 100}% of traces exported`, exporting],
      ] as const) {
        const cpu = result.cpuPerRequestUs ?? 0;
        const baseCpu = gateway.cpuPerRequestUs ?? 0;
        onOffRows.push([
          name,
          mode,
          result.requests.average.toFixed(0),
          `${result.latency.p99} ms`,
          `${cpu.toFixed(0)} µs`,
          result === gateway
            ? '-'
            : `${(result.requests.average / gateway.requests.average).toFixed(2)}x / ` +
              `${(result.latency.p99 / Math.max(1, gateway.latency.p99)).toFixed(2)}x / ` +
              `${cpu - baseCpu >= 0 ? '+' : ''}${(cpu - baseCpu).toFixed(0)} µs`,
        ]);
      }
      const onOff = (on: Measured) =>
        `${(on.requests.average / gateway.requests.average).toFixed(2)}x throughput, p99 ${on.latency.p99} vs ` +
        `${gateway.latency.p99} ms, CPU per request ${((on.cpuPerRequestUs ?? 0) / (gateway.cpuPerRequestUs ?? 1)).toFixed(2)}x`;
      summary.push(
        `${name}: instrumentation on/off ${onOff(traced)}; with ${Number(EXPORTED_RATIO) * 100}% exported ` +
          `${onOff(exporting)} (target >= 0.95x throughput, p99 <= 1.1x); ` +
          `gateway/direct ${(gateway.requests.average / direct.requests.average).toFixed(2)}x, ` +
          `gateway/reply-from ${(gateway.requests.average / proxied.requests.average).toFixed(2)}x (target >= 0.90x); ` +
          `proxy CPU per request gateway/reply-from ${((gateway.cpuPerRequestUs ?? 0) / (proxied.cpuPerRequestUs ?? 1)).toFixed(2)}x; ` +
          `signed bytes/reply-from ${(signedBytes.requests.average / proxied.requests.average).toFixed(2)}x throughput, ` +
          `${((signedBytes.cpuPerRequestUs ?? 0) / (proxied.cpuPerRequestUs ?? 1)).toFixed(2)}x CPU per request`,
      );
    }

    printTable(['call', 'mode', 'req/s', 'p50', 'p99', 'added p50 / p99', 'proxy CPU/req', 'non-2xx'], rows);
    console.log(
      '\nInstrumentation on and off (against the signed gateway: throughput / p99 / CPU per request):\n',
    );
    printTable(['call', 'mode', 'req/s', 'p99', 'proxy CPU/req', 'vs signed'], onOffRows);
    console.log(`\n${summary.join('\n')}`);
    console.log(
      `\n${rounds} interleaved rounds of ${duration} s per mode, ${connections} connections, loopback, ` +
        `Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the end.`,
    );
    console.log(`${collector.spans()} spans reached the loopback collector.`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    for (const close of closers) await close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function sideBySideModes(list: string): [SideBySideMode, SideBySideMode] {
  const modes = list.split(',').map((one) => one.trim());
  const known = (one: string | undefined): one is SideBySideMode =>
    SIDE_BY_SIDE_MODES.some((mode) => mode === one);
  const [first, second] = modes;
  if (modes.length !== 2 || !known(first) || !known(second))
    throw new Error(`--compare takes two of ${SIDE_BY_SIDE_MODES.join(', ')}, as a,b: "${list}"`);
  return [first, second];
}

/**
 * Two proxy processes at the same time, each sent `requests` calls per round by its own autocannon, one
 * in each mode: their CPU per request, round by round (a first round warms both up, uncounted).
 */
async function runSideBySide(
  requests: number,
  rounds: number,
  modes: [SideBySideMode, SideBySideMode],
  call: 'small' | 'large',
): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wayfare-gateway-bench-'));
  const children: ChildProcess[] = [];
  const method = call === 'small' ? 'GET' : 'POST';
  const upstreamPath = call === 'small' ? SMALL_PATH : LARGE_PATH;
  const body = call === 'small' ? undefined : LARGE_BODY;
  try {
    const standIn = await startStandIn(children, dataDir);
    const sides = await Promise.all(
      modes.map(async (mode) => {
        const urls = await startProxies(
          standIn,
          children,
          mode === 'traced' ? { WAYFARE_BENCH_INSTRUMENTED: '1' } : {},
        );
        // Each process answers its CPU time on the gateway's /__cpu.
        return {
          mode,
          cpuUrl: urls.gateway,
          url: `${urls[SERVER_OF_MODE[mode]]}/${call}`,
        };
      }),
    );
    const round = () =>
      Promise.all(
        sides.map(async ({ mode, cpuUrl, url }) => {
          const headers: Record<string, string> = {
            ...(body ? { 'content-type': 'application/json' } : {}),
            // The unsigned proxy passes the consumer signature through: made for this round.
            ...(mode === 'reply-from'
              ? signedHeaders({ consumer: CONSUMER, secret: SECRET, method, path: upstreamPath, body })
              : {}),
          };
          const before = await cpuOf(cpuUrl);
          const result = await autocannon({
            url,
            method,
            headers,
            ...(body ? { body } : {}),
            connections: 5,
            amount: requests,
          });
          const cpu = (await cpuOf(cpuUrl)) - before;
          return {
            cpuPerRequestUs: cpu / Math.max(1, result.requests.total),
            failures: result.non2xx + result.errors + result.timeouts,
          };
        }),
      );
    await round();
    const rows: string[][] = [];
    const ratios: number[] = [];
    for (let index = 0; index < rounds; index += 1) {
      const [first, second] = (await round()) as [SideBySideRun, SideBySideRun];
      ratios.push(second.cpuPerRequestUs / first.cpuPerRequestUs);
      rows.push([
        String(index + 1),
        `${first.cpuPerRequestUs.toFixed(0)} µs`,
        `${second.cpuPerRequestUs.toFixed(0)} µs`,
        `${(second.cpuPerRequestUs - first.cpuPerRequestUs).toFixed(0)} µs`,
        `${(ratios.at(-1) ?? 0).toFixed(2)}x`,
        String(first.failures + second.failures),
      ]);
    }
    printTable(['round', modes[0], modes[1], 'added', 'ratio', 'failures'], rows);
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `\n${call === 'small' ? 'Small GET' : '64 KiB POST'}, ${requests} requests per process per round, both at ` +
        `once (5 connections each); median ratio ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2)}x. ` +
        `Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the end.`,
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface SideBySideRun {
  cpuPerRequestUs: number;
  failures: number;
}

/** An OTLP/HTTP collector on loopback that counts the spans it receives and keeps nothing. */
async function startCollector(): Promise<{ url: string; spans: () => number; close: () => Promise<void> }> {
  let spans = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      spans += Buffer.concat(chunks).toString('utf8').split('"spanId"').length - 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    spans: () => spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function startProcess(
  args: string[],
  children: ChildProcess[],
  env: Record<string, string> = {},
): ChildProcess {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.once('exit', (code) => reject(new Error(`the proxies exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end !== -1) resolve(buffered.slice(0, end));
    });
  });
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

async function waitUntilAnswering(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Rounds of one mode as one result: mean throughput and latency percentiles, summed failures. */
function combine(results: Measured[]): Measured {
  const mean = (pick: (result: Measured) => number) =>
    results.reduce((sum, result) => sum + pick(result), 0) / results.length;
  const sum = (pick: (result: Measured) => number) =>
    results.reduce((total, result) => total + pick(result), 0);
  return {
    requests: {
      average: mean((result) => result.requests.average),
      total: sum((result) => result.requests.total),
    },
    cpuPerRequestUs:
      results[0]?.cpuPerRequestUs === null
        ? null
        : sum((result) => (result.cpuPerRequestUs ?? 0) * result.requests.total) /
          Math.max(
            1,
            sum((result) => result.requests.total),
          ),
    latency: {
      p50: Math.round(mean((result) => result.latency.p50)),
      p99: Math.round(mean((result) => result.latency.p99)),
    },
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors),
    timeouts: sum((result) => result.timeouts),
  };
}
