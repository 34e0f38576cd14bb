/**
 * SSE fan-out of the notification hub: N concurrent browser streams (GET /api/notifications/stream)
 * on one BFF process on loopback, fed by a scripted travel API that checks every signature. Reports
 * the BFF's memory per idle stream (RSS and V8 heap after a forced GC, against the same process before
 * the streams opened) and the delay from the travel API writing a notification to each browser stream
 * receiving it (p50, p99, max), over several rounds, with the CPU time the BFF spent on each round (a
 * figure that does not depend on how busy the machine is, unlike the delays).
 *
 * The BFF runs in a child process (with --expose-gc) so that the clients and the travel API do not
 * share its event loop or its memory. Each traveler has `--tabs-per-traveler` streams, so the BFF also
 * holds one upstream stream per traveler (counted in the memory per stream).
 *
 * Flags: --streams <n> (default 10000), --tabs-per-traveler <n> (default 2), --rounds <n> (default 5),
 * --timeout <seconds for the whole run> (default 300).
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { notificationFixture, ScriptedTravelApi } from '../bff/streams/testing/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET } from '../bff/streams/testing/start-test-bff.ts';

const { values } = parseArgs({
  options: {
    'serve-bff': { type: 'string' },
    streams: { type: 'string', default: '10000' },
    'tabs-per-traveler': { type: 'string', default: '2' },
    rounds: { type: 'string', default: '5' },
    timeout: { type: 'string', default: '300' },
  },
});

interface MemoryReport {
  rss: number;
  heapUsed: number;
  sseStreams: number;
  channels: number;
}

type ToChild =
  { type: 'sign-in'; travelers: number } | { type: 'memory' } | { type: 'cpu' } | { type: 'close' };
type FromChild =
  | { type: 'ready'; url: string }
  | { type: 'signed-in'; cookies: string[] }
  | { type: 'memory'; report: MemoryReport }
  | { type: 'cpu'; microseconds: number };

/** Child: the BFF alone in its process, answering the parent's requests over IPC. */
async function serveBff(travelApiUrl: string): Promise<void> {
  const bff = await startTestBff({
    TRAVEL_API_URL: travelApiUrl,
    SSE_MAX_STREAMS_PER_SESSION: '64',
    NOTIFICATION_HUB_LINGER_MS: '10000',
  });
  const send = (message: FromChild) => process.send?.(message);
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (message: ToChild) => {
    void (async () => {
      if (message.type === 'sign-in') {
        const cookies: string[] = [];
        for (let index = 0; index < message.travelers; index += 1) {
          const traveler = `5f1c2a7e-0b1d-4c5e-9a01-${String(index).padStart(12, '0')}`;
          cookies.push((await bff.signIn(traveler)).headers.cookie ?? '');
        }
        send({ type: 'signed-in', cookies });
      } else if (message.type === 'memory') {
        for (let i = 0; i < 3; i += 1) gc?.();
        await new Promise((resolve) => setTimeout(resolve, 200));
        gc?.();
        const usage = process.memoryUsage();
        const hub = bff.app.notificationHub.stats();
        send({
          type: 'memory',
          report: {
            rss: usage.rss,
            heapUsed: usage.heapUsed,
            sseStreams: bff.app.sse.size,
            channels: hub.channels,
          },
        });
      } else if (message.type === 'cpu') {
        const { user, system } = process.cpuUsage();
        send({ type: 'cpu', microseconds: user + system });
      } else {
        await bff.close();
        process.exit(0);
      }
    })();
  });
  send({ type: 'ready', url: bff.url });
}

/** One browser tab: a plain HTTP/1.1 stream, scanned for `id:` lines as bytes arrive. */
class Tab {
  readonly received = new Map<string, number>();
  live = false;
  #carry = '';
  #request: http.ClientRequest | undefined;

  open(url: string, cookie: string, tabId: string, agent: http.Agent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#request = http.get(
        `${url}/api/notifications/stream?tab=${tabId}&visible=0`,
        { agent, headers: { cookie, 'x-requested-with': 'wayfare', accept: 'text/event-stream' } },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`stream refused with ${response.statusCode}`));
            response.resume();
            return;
          }
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => this.#scan(chunk));
          resolve();
        },
      );
      this.#request.on('error', reject);
    });
  }

  close(): void {
    this.#request?.destroy();
  }

  #scan(chunk: string): void {
    const now = performance.now();
    const text = this.#carry + chunk;
    const cut = text.lastIndexOf('\n');
    this.#carry = text.slice(cut + 1);
    for (const line of text.slice(0, cut).split('\n')) {
      if (line.startsWith('id: ')) this.received.set(line.slice(4), now);
      else if (!this.live && line.startsWith('data: {"state":"live"')) this.live = true;
    }
  }
}

async function runBenchmark(): Promise<void> {
  const streams = Number(values.streams);
  const tabsPerTraveler = Number(values['tabs-per-traveler']);
  const rounds = Number(values.rounds);
  const deadline = Date.now() + Number(values.timeout) * 1000;
  const travelers = Math.ceil(streams / tabsPerTraveler);
  const travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  const child = fork(import.meta.filename, ['--serve-bff', travelApi.url], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const tabs: Tab[] = [];
  try {
    const { url } = await reply(child, undefined, 'ready');
    const { cookies } = await reply(child, { type: 'sign-in', travelers }, 'signed-in');
    const before = (await reply(child, { type: 'memory' }, 'memory')).report;

    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const connectStarted = performance.now();
    for (let start = 0; start < streams; start += 250) {
      const batch = Array.from({ length: Math.min(250, streams - start) }, (_, offset) => {
        const index = start + offset;
        const tab = new Tab();
        tabs.push(tab);
        return tab.open(url, cookies[index % travelers] ?? '', `bench-tab-${index}`, agent);
      });
      await Promise.all(batch);
      checkDeadline(deadline);
    }
    await waitUntil(() => tabs.every((tab) => tab.live), deadline);
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = (await reply(child, { type: 'memory' }, 'memory')).report;

    const delays: number[] = [];
    const roundMax: number[] = [];
    const roundCpu: number[] = [];
    const roundClientCpu: number[] = [];
    let missing = 0;
    for (let round = 0; round < rounds; round += 1) {
      const id = `bench-round-${round}-${Date.now()}`;
      const cpuBefore = (await reply(child, { type: 'cpu' }, 'cpu')).microseconds;
      const clientCpuBefore = process.cpuUsage();
      const emittedAt = performance.now();
      travelApi.emit(notificationFixture(id));
      await waitUntil(
        () => tabs.every((tab) => tab.received.has(id)),
        Math.min(deadline, Date.now() + 30_000),
      ).catch(() => undefined);
      let slowest = 0;
      for (const tab of tabs) {
        const at = tab.received.get(id);
        if (at === undefined) {
          missing += 1;
          continue;
        }
        delays.push(at - emittedAt);
        slowest = Math.max(slowest, at - emittedAt);
      }
      roundMax.push(slowest);
      const clientCpu = process.cpuUsage(clientCpuBefore);
      roundClientCpu.push((clientCpu.user + clientCpu.system) / 1000);
      roundCpu.push(((await reply(child, { type: 'cpu' }, 'cpu')).microseconds - cpuBefore) / 1000);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    delays.sort((a, b) => a - b);
    const kib = (bytes: number) => (bytes / 1024).toFixed(1);
    const rssPerStream = (idle.rss - before.rss) / streams;
    const heapPerStream = (idle.heapUsed - before.heapUsed) / streams;
    const p50 = percentile(delays, 0.5);
    const p99 = percentile(delays, 0.99);
    const bffCpuPerRound = percentile(
      [...roundCpu].sort((a, b) => a - b),
      0.5,
    );
    console.log(
      `SSE fan-out: ${streams} browser streams, ${travelers} travelers (${tabsPerTraveler} tabs each)`,
    );
    console.table({
      'streams open (BFF count)': idle.sseStreams,
      'upstream streams (hub channels)': idle.channels,
      'time to open all, s': connectSeconds.toFixed(1),
      'RSS before, MiB': (before.rss / 2 ** 20).toFixed(1),
      'RSS with streams idle, MiB': (idle.rss / 2 ** 20).toFixed(1),
      'RSS per idle stream, KiB': kib(rssPerStream),
      'V8 heap per idle stream, KiB': kib(heapPerStream),
      'delivery delay p50, ms': p50.toFixed(1),
      'delivery delay p99, ms': p99.toFixed(1),
      'delivery delay max, ms': (delays.at(-1) ?? 0).toFixed(1),
      'slowest round (last tab), ms': Math.max(...roundMax).toFixed(1),
      'BFF CPU per fan-out round (median), ms': bffCpuPerRound.toFixed(1),
      'BFF CPU per stream delivered, µs': ((bffCpuPerRound * 1000) / streams).toFixed(1),
      // The clients and the scripted travel API share this process: its CPU shows they are not what
      // the BFF waits on (it has its own process and core time).
      'bench clients + travel API CPU per round (median), ms': percentile(
        [...roundClientCpu].sort((a, b) => a - b),
        0.5,
      ).toFixed(1),
      'load average (1 min) at the end': os.loadavg()[0]?.toFixed(1) ?? '',
      'deliveries missing': missing,
    });
    const targets = rssPerStream <= 20 * 1024 && p99 < 250 && missing === 0;
    console.log(
      `Targets (<= 20 KiB RSS per idle stream, p99 < 250 ms, nothing missing): ${targets ? 'met' : 'NOT met'}`,
    );
    if (missing > 0) process.exitCode = 1;
  } finally {
    for (const tab of tabs) tab.close();
    child.send({ type: 'close' } satisfies ToChild);
    await new Promise((resolve) => child.once('exit', resolve));
    await travelApi.close();
  }
}

function reply<T extends FromChild['type']>(
  child: ChildProcess,
  request: ToChild | undefined,
  type: T,
): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the BFF process exited (${code})`));
    const onMessage = (message: FromChild) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<FromChild, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (request) child.send(request);
  });
}

async function waitUntil(condition: () => boolean, deadline: number): Promise<void> {
  while (!condition()) {
    checkDeadline(deadline);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function checkDeadline(deadline: number): void {
  if (Date.now() > deadline) throw new Error('the benchmark ran out of time');
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

if (values['serve-bff'] !== undefined) await serveBff(values['serve-bff']);
else await runBenchmark();
