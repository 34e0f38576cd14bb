/**
 * SSE fan-out of the notification hub: N concurrent browser streams (GET /api/notifications/stream)
 * on one BFF process on loopback, fed by a scripted travel API that checks every signature.
 *
 * Memory: the BFF's RSS and V8 heap (after a forced GC) before any stream, with half of the streams
 * open and with all of them open and idle. "Per idle stream" is reported two ways: everything over the
 * empty process divided by N, and the marginal cost of the second half (what one more stream costs,
 * without the one-off growth of the heap and the allocator that any busy process shows).
 *
 * Delivery delay, from the travel API writing a notification to a browser stream receiving it, in two
 * kinds of traffic:
 * - steady: notifications for single travelers (a delayed flight concerns its traveler), at a fixed
 *   rate spread over the open travelers, for long enough to include the heartbeats of every stream;
 *   each notification is timed at each of its traveler's tabs;
 * - burst: every traveler gets a notification at the same instant (N deliveries at once), the worst
 *   case. Its floor on this machine is measured too: a bare `net` server (no HTTP parsing, no hub)
 *   writing one ready-made chunk to the same number of loopback sockets, read by the same clients.
 *
 * The BFF is measured twice in the same run: against the scripted travel API over HTTP/1.1 (one upstream
 * connection per traveler's notification stream), and against the same travel API over HTTPS with HTTP/2
 * (every upstream stream a stream of a few connections), with the connections it opened counted at the
 * travel API. The floor relays over HTTP/1.1.
 *
 * Telemetry's cost on a burst: two more BFFs over HTTP/1.1, bursts only (no steady traffic), one with
 * OpenTelemetry off (OTEL_SDK_DISABLED=true) and one on as `npm start` runs it (trace ids, the metrics,
 * no collector), each with a travel API and tabs of its own, all open at once and sent their bursts in
 * turn after two each to warm up; the burst p99 and the CPU per burst of one against the other.
 *
 * The BFF (and the floor server) run in a child process (with --expose-gc), so the clients and the
 * travel API do not share its event loop or its memory; the clients are plain sockets that scan the
 * bytes for `id:` lines, so that reading 10,000 streams costs the measuring process little. Each
 * traveler has `--tabs-per-traveler` streams, so the BFF also holds one upstream stream per traveler
 * (counted in the memory per stream).
 *
 * Memory per signed-in traveler with two tabs open: a fresh BFF, `--travelers-with-two-tabs` travelers
 * signed in, first one browser stream each (the tab that holds the browser's notification stream, the
 * other tab hears it over BroadcastChannel), then a second stream each (every tab its own stream, as
 * before): the BFF's memory over the empty process per traveler, both ways.
 *
 * Flags: --streams <n> (default 10000), --tabs-per-traveler <n> (default 2), --steady-rate <per second>
 * (default 100), --steady-seconds <n> (default 40: more than the longest heartbeat interval), --bursts <n>
 * (default 5), --timeout <seconds for the whole run> (default 600), --travelers-with-two-tabs <n> (default
 * 2000), --traveler-memory-only (skips the fan-out), --reconnect-only (every upstream stream let go of at
 * once, see runReconnectOnly; `--streams` tabs), --telemetry-only (the telemetry comparison alone,
 * `--bursts` of each in turn), --telemetry-streams <n> (each BFF's streams in the telemetry comparison,
 * default 4000: the two hold theirs at once, and this process holds every client socket and upstream
 * stream of both), --telemetry-bursts <n> (the full run's telemetry comparison: bursts of each BFF in
 * turn, default 30; one run's ratio of a few bursts moves by more than telemetry costs),
 * --cpu-prof <folder> (a CPU profile of the bursts of the BFF over HTTP/1.1 and of the floor, sampled
 * every 100 µs from the first burst to the last and written as bff-bursts.cpuprofile and
 * floor-bursts.cpuprofile, for Chrome's DevTools or speedscope; and of the telemetry runs,
 * bff-telemetry-off-bursts.cpuprofile and bff-telemetry-on-bursts.cpuprofile, whose difference is what
 * telemetry costs a burst),
 * --heap-snapshots <folder> (V8 heap snapshots of the BFF over HTTP/1.1 and of the floor, empty and with
 * every stream open and idle: bff-empty.heapsnapshot, bff-idle.heapsnapshot, floor-...; what each stream
 * keeps is the difference).
 */
import { fork, type ChildProcess } from 'node:child_process';
import http, { type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { writeHeapSnapshot } from 'node:v8';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { notificationFixture, ScriptedTravelApi } from '../bff/test-support/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET } from '../bff/test-support/start-test-bff.ts';
import { hubEventFrame } from '../bff/notifications/encode-hub-event.ts';
import { signedHeaders } from '#shared/upstream/sign-request.ts';
import { printTable } from './support/print-table.ts';
import { ensureLocalCertificates } from '../upstream/travel-api/local-certificates.ts';

const { values } = parseArgs({
  options: {
    'serve-bff': { type: 'string' },
    'serve-floor': { type: 'string' },
    'travel-api-ca': { type: 'string' },
    streams: { type: 'string', default: '10000' },
    'tabs-per-traveler': { type: 'string', default: '2' },
    'steady-rate': { type: 'string', default: '100' },
    'steady-seconds': { type: 'string', default: '40' },
    bursts: { type: 'string', default: '5' },
    timeout: { type: 'string', default: '600' },
    'travelers-with-two-tabs': { type: 'string', default: '2000' },
    'traveler-memory-only': { type: 'boolean', default: false },
    'telemetry-only': { type: 'boolean', default: false },
    'telemetry-streams': { type: 'string', default: '4000' },
    'telemetry-bursts': { type: 'string', default: '30' },
    'reconnect-only': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    'heap-snapshots': { type: 'string' },
  },
});

interface MemoryReport {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  sseStreams: number;
  channels: number;
}

type ToChild =
  | { type: 'sign-in'; travelers: number }
  | { type: 'memory' }
  | { type: 'cpu' }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'heap-snapshot'; file: string }
  | { type: 'close' };
type FromChild =
  | { type: 'ready'; port: number }
  | { type: 'profile'; done: true }
  | { type: 'signed-in'; cookies: string[] }
  | { type: 'memory'; report: MemoryReport }
  | { type: 'cpu'; microseconds: number };

const travelerId = (index: number) => `5f1c2a7e-0b1d-4c5e-9a01-${String(index).padStart(12, '0')}`;

function cpuMicroseconds(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Child: starts and stops V8's sampling profiler (`--cpu-prof`), and writes heap snapshots
 * (`--heap-snapshots`), on the parent's request. The inspector session is opened by the first profile
 * asked for, so a run without `--cpu-prof` measures a process with none.
 */
function profilerOfChild(send: (message: FromChild) => void) {
  let session: Session | undefined;
  return async (message: ToChild): Promise<boolean> => {
    if (message.type === 'profile-start') {
      if (session === undefined) {
        session = new Session();
        session.connect();
      }
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
    } else if (message.type === 'profile-stop') {
      if (session === undefined) throw new Error('profile-stop without a profile-start');
      const { profile } = await session.post('Profiler.stop');
      await writeFile(message.file, JSON.stringify(profile));
    } else if (message.type === 'heap-snapshot') {
      writeHeapSnapshot(message.file);
    } else {
      return false;
    }
    send({ type: 'profile', done: true });
    return true;
  };
}

/** Child: the BFF alone in its process, answering the parent's requests over IPC. */
async function serveBff(travelApiUrl: string, caFile: string | undefined): Promise<void> {
  const bff = await startTestBff({
    TRAVEL_API_URL: travelApiUrl,
    ...(caFile === undefined ? {} : { TRAVEL_API_CA_FILE: caFile }),
    SSE_MAX_STREAMS_PER_SESSION: '64',
    NOTIFICATION_HUB_LINGER_MS: '10000',
  });
  const send = (message: FromChild) => process.send?.(message);
  const profiler = profilerOfChild(send);
  process.on('message', (message: ToChild) => {
    void (async () => {
      if (await profiler(message)) return;
      if (message.type === 'sign-in') {
        const cookies: string[] = [];
        for (let index = 0; index < message.travelers; index += 1) {
          cookies.push((await bff.signIn(travelerId(index))).headers.cookie ?? '');
        }
        send({ type: 'signed-in', cookies });
      } else if (message.type === 'memory') {
        const report = await memoryReport(bff.app.sse.size, bff.app.notificationHub.stats().channels);
        send({ type: 'memory', report });
      } else if (message.type === 'cpu') {
        send({ type: 'cpu', microseconds: cpuMicroseconds() });
      } else if (message.type === 'close') {
        await bff.close();
        process.exit(0);
      }
    })();
  });
  send({ type: 'ready', port: Number(new URL(bff.url).port) });
}

/** The process's memory after a forced GC, with the number of streams and upstream streams it holds. */
async function memoryReport(sseStreams: number, channels: number): Promise<MemoryReport> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i += 1) gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc?.();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, sseStreams, channels };
}

/**
 * Child: the floor, the least a relay of these streams can be on the same libraries. A bare node:http
 * server answers each browser with the SSE headers and a `live` status; the first tab of a traveler (the
 * `traveler` cookie) opens one signed upstream stream with undici, whose bytes are written as they are
 * to every tab of that traveler. No Fastify, no session, no hub, no parsing, no dedupe, no heartbeat.
 */
function serveFloor(travelApiUrl: string): void {
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
  const tabsByTraveler = new Map<string, Set<ServerResponse>>();
  let streamsOpen = 0;
  const live = hubEventFrame({ type: 'status', state: 'live' }).bytes;
  const openUpstream = async (traveler: string, tabs: Set<ServerResponse>) => {
    const path = '/v1/me/notifications/stream';
    const { body } = await request(travelApiUrl + path, {
      dispatcher,
      headers: {
        accept: 'text/event-stream',
        authorization: `Bearer access-token-${traveler}`,
        ...signedHeaders({
          consumer: 'wayfare-web',
          secret: TEST_CONSUMER_SECRET,
          method: 'GET',
          path,
          body: undefined,
        }),
      },
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    body.on('data', (chunk: Buffer) => {
      for (const res of tabs) res.write(chunk);
    });
    body.on('error', () => undefined);
  };
  const server = http.createServer((req, res) => {
    const traveler = /traveler=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(live);
    let tabs = tabsByTraveler.get(traveler);
    if (tabs === undefined) {
      tabs = new Set();
      tabsByTraveler.set(traveler, tabs);
      void openUpstream(traveler, tabs);
    }
    tabs.add(res);
    streamsOpen += 1;
    res.once('close', () => {
      tabs.delete(res);
      streamsOpen -= 1;
    });
  });
  const send = (message: FromChild) => process.send?.(message);
  const profiler = profilerOfChild(send);
  process.on('message', (message: ToChild) => {
    void (async () => {
      if (await profiler(message)) return;
      if (message.type === 'memory') {
        send({ type: 'memory', report: await memoryReport(streamsOpen, tabsByTraveler.size) });
      } else if (message.type === 'cpu') {
        send({ type: 'cpu', microseconds: cpuMicroseconds() });
      } else if (message.type === 'close') {
        server.closeAllConnections();
        await dispatcher.destroy();
        server.close(() => process.exit(0));
      }
    })();
  });
  server.listen(0, '127.0.0.1', () => {
    send({ type: 'ready', port: (server.address() as AddressInfo).port });
  });
}

/** One browser tab: a socket speaking HTTP/1.1 by hand, scanned for `id:` lines as bytes arrive. */
class Tab {
  readonly received = new Map<string, number>();
  live = false;
  #carry = '';
  #socket: net.Socket | undefined;

  open(port: number, cookie: string, tabId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      this.#socket = socket;
      let head = '';
      const onHead = (chunk: Buffer) => {
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) return;
        socket.off('data', onHead);
        if (!head.startsWith('HTTP/1.1 200')) {
          socket.destroy();
          reject(new Error(`stream refused: ${head.slice(0, head.indexOf('\r\n'))}`));
          return;
        }
        socket.on('data', (data: Buffer) => this.#scan(data.toString('latin1')));
        this.#scan(head.slice(end + 4));
        resolve();
      };
      socket.on('data', onHead);
      socket.once('error', reject);
      socket.write(
        `GET /api/notifications/stream?tab=${tabId}&visible=0 HTTP/1.1\r\nHost: localhost\r\n` +
          `Cookie: ${cookie}\r\nX-Requested-With: wayfare\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
  }

  close(): void {
    this.#socket?.destroy();
  }

  /** Notes the arrival of every notification id: `{"id":"` opens a notification's JSON in any frame. */
  #scan(text: string): void {
    const now = performance.now();
    const all = this.#carry + text;
    const cut = all.lastIndexOf('\n');
    this.#carry = all.slice(cut + 1);
    let at = all.indexOf(ID_MARK);
    while (at !== -1 && at < cut) {
      const end = all.indexOf('"', at + ID_MARK.length);
      this.received.set(all.slice(at + ID_MARK.length, end), now);
      at = all.indexOf(ID_MARK, end);
    }
    if (!this.live && all.includes('data: {"state":"live"')) this.live = true;
  }
}

const ID_MARK = '{"id":"';

interface Delays {
  sorted: number[];
  missing: number;
}

function summarise(samples: number[], missing: number): Delays {
  return { sorted: [...samples].sort((a, b) => a - b), missing };
}

/** Each tab's wait for the event `id` from `since` (performance.now()), and the tabs it did not reach. */
function delaysTo(tabs: Tab[], id: string, since: number): Delays {
  const samples: number[] = [];
  let missing = 0;
  for (const tab of tabs) {
    const at = tab.received.get(id);
    if (at === undefined) missing += 1;
    else samples.push(at - since);
  }
  return summarise(samples, missing);
}

/** The folder a flag names (`--cpu-prof`, `--heap-snapshots`), made if missing; undefined without it. */
async function outputFolder(flag: 'cpu-prof' | 'heap-snapshots'): Promise<string | undefined> {
  const folder = values[flag];
  if (folder === undefined) return undefined;
  const resolved = path.resolve(folder);
  await mkdir(resolved, { recursive: true });
  return resolved;
}

async function openTabs(
  port: number,
  count: number,
  cookieFor: (index: number) => string,
  tabs: Tab[],
  deadline: number,
): Promise<void> {
  const from = tabs.length;
  for (let start = from; start < from + count; start += 250) {
    const batch = Array.from({ length: Math.min(250, from + count - start) }, (_, offset) => {
      const tab = new Tab();
      tabs.push(tab);
      return tab.open(port, cookieFor(start + offset), `bench-tab-${start + offset}`);
    });
    await Promise.all(batch);
    checkDeadline(deadline);
  }
}

/**
 * Every traveler at once, `bursts` times: the delay of each delivery and the sender's CPU per burst;
 * with `profileTo`, the sender's CPU profile from the first burst to the last, written to that file.
 */
async function runBursts(
  child: ChildProcess,
  tabs: Tab[],
  bursts: number,
  emit: (id: string) => void,
  deadline: number,
  profileTo?: string,
): Promise<Delays & { cpuMs: number[] }> {
  const samples: number[] = [];
  const cpuMs: number[] = [];
  let missing = 0;
  if (profileTo !== undefined) await reply(child, { type: 'profile-start' }, 'profile');
  for (let burst = 0; burst < bursts; burst += 1) {
    const id = `bench-burst-${burst}-${Date.now()}`;
    const cpuBefore = (await reply(child, { type: 'cpu' }, 'cpu')).microseconds;
    const emittedAt = performance.now();
    emit(id);
    await waitUntil(
      () => tabs.every((tab) => tab.received.has(id)),
      Math.min(deadline, Date.now() + 30_000),
    ).catch(() => undefined);
    const delays = delaysTo(tabs, id, emittedAt);
    samples.push(...delays.sorted);
    missing += delays.missing;
    cpuMs.push(((await reply(child, { type: 'cpu' }, 'cpu')).microseconds - cpuBefore) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (profileTo !== undefined) {
    await reply(child, { type: 'profile-stop', file: profileTo }, 'profile');
    console.log(`CPU profile of the bursts: ${profileTo}`);
  }
  return { ...summarise(samples, missing), cpuMs };
}

interface Opening {
  empty: MemoryReport;
  halfOpen: MemoryReport;
  idle: MemoryReport;
  connectSeconds: number;
}

/**
 * Opens every tab against `port` in two halves of whole travelers (a traveler's tabs one after the
 * other, so each half holds half of the upstream streams too), measuring the server's memory empty,
 * half open and all open and idle.
 */
async function openAll(
  child: ChildProcess,
  port: number,
  tabs: Tab[],
  cookieFor: (index: number) => string,
  { streams, half, deadline }: { streams: number; half: number; deadline: number },
  snapshotAs?: (moment: 'empty' | 'idle') => string,
): Promise<Opening> {
  const empty = (await reply(child, { type: 'memory' }, 'memory')).report;
  if (snapshotAs) await reply(child, { type: 'heap-snapshot', file: snapshotAs('empty') }, 'profile');
  const started = performance.now();
  await openTabs(port, half, cookieFor, tabs, deadline);
  await waitUntil(() => tabs.every((tab) => tab.live), deadline);
  const halfOpen = (await reply(child, { type: 'memory' }, 'memory')).report;
  await openTabs(port, streams - half, cookieFor, tabs, deadline);
  await waitUntil(() => tabs.every((tab) => tab.live), deadline);
  const connectSeconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = (await reply(child, { type: 'memory' }, 'memory')).report;
  if (snapshotAs) await reply(child, { type: 'heap-snapshot', file: snapshotAs('idle') }, 'profile');
  return { empty, halfOpen, idle, connectSeconds };
}

/** What a run writes besides its figures: a CPU profile of its bursts, heap snapshots of its streams. */
interface Outputs {
  profileTo?: string | undefined;
  snapshotAs?: ((moment: 'empty' | 'idle') => string) | undefined;
}

interface BffRun {
  opening: Opening;
  steady: Delays;
  steadyCpuMs: number;
  emitted: number;
  burst: Delays & { cpuMs: number[] };
  /** TCP connections the BFF opened to the travel API during the run. */
  upstreamConnections: number;
}

/**
 * The BFF in a child process against `travelApi` (HTTP/1.1, or HTTPS with HTTP/2 when `caFile` is given):
 * every tab opened, steady traffic to single travelers, then bursts to every traveler.
 */
async function measureBff(
  travelApi: ScriptedTravelApi,
  caFile: string | undefined,
  settings: {
    streams: number;
    tabsPerTraveler: number;
    steadyRate: number;
    steadySeconds: number;
    bursts: number;
    deadline: number;
  },
  env: Record<string, string> = {},
  outputs: Outputs = {},
): Promise<BffRun> {
  const { streams, tabsPerTraveler, steadyRate, steadySeconds, bursts, deadline } = settings;
  const travelers = Math.ceil(streams / tabsPerTraveler);
  const half = Math.floor(travelers / 2) * tabsPerTraveler;
  const travelerOf = (index: number) => Math.floor(index / tabsPerTraveler);
  const connectionsBefore = travelApi.connections;
  const child = forkBff(travelApi, { caFile, env });
  const tabs: Tab[] = [];
  try {
    const { port } = await reply(child, undefined, 'ready');
    const { cookies } = await reply(child, { type: 'sign-in', travelers }, 'signed-in');
    const opening = await openAll(
      child,
      port,
      tabs,
      (index) => cookies[travelerOf(index)] ?? '',
      { streams, half, deadline },
      outputs.snapshotAs,
    );
    const upstreamConnections = travelApi.connections - connectionsBefore;
    // Steady traffic: single travelers, in a shuffled order, at `steadyRate` notifications per second.
    const tabsOf = (traveler: number) =>
      tabs.slice(traveler * tabsPerTraveler, (traveler + 1) * tabsPerTraveler);
    const order = shuffled(travelers);
    const emitted: { id: string; traveler: number; at: number }[] = [];
    const steadyCpuBefore = (await reply(child, { type: 'cpu' }, 'cpu')).microseconds;
    const steadyStarted = performance.now();
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        const elapsed = (performance.now() - steadyStarted) / 1000;
        const due = Math.min(Math.floor(elapsed * steadyRate), Math.floor(steadySeconds * steadyRate));
        while (emitted.length < due) {
          const traveler = order[emitted.length % travelers] ?? 0;
          const id = `bench-steady-${emitted.length}-${Date.now()}`;
          emitted.push({ id, traveler, at: performance.now() });
          travelApi.emitTo(travelerId(traveler), notificationFixture(id), { traced: true });
        }
        if (elapsed >= steadySeconds) {
          clearInterval(tick);
          resolve();
        }
      }, 5);
    });
    const steadyCpuMs = ((await reply(child, { type: 'cpu' }, 'cpu')).microseconds - steadyCpuBefore) / 1000;
    await waitUntil(
      () => emitted.every(({ id, traveler }) => tabsOf(traveler).every((tab) => tab.received.has(id))),
      Math.min(deadline, Date.now() + 10_000),
    ).catch(() => undefined);
    const steadySamples: number[] = [];
    let steadyMissing = 0;
    for (const { id, traveler, at } of emitted) {
      for (const tab of tabsOf(traveler)) {
        const receivedAt = tab.received.get(id);
        if (receivedAt === undefined) steadyMissing += 1;
        else steadySamples.push(receivedAt - at);
      }
    }
    const steady = summarise(steadySamples, steadyMissing);
    const emitToAll = (id: string) => travelApi.emit(notificationFixture(id), { traced: true });
    const burst = await runBursts(child, tabs, bursts, emitToAll, deadline, outputs.profileTo);
    return { opening, steady, steadyCpuMs, emitted: emitted.length, burst, upstreamConnections };
  } finally {
    for (const tab of tabs) tab.close();
    await closeChild(child);
  }
}

interface TelemetryRuns {
  off: Delays & { cpuMs: number[]; burstP99: number[] };
  on: Delays & { cpuMs: number[]; burstP99: number[] };
}

/**
 * Bursts each BFF of the telemetry comparison is sent first and not counted: a fresh process's first
 * bursts run code V8 has not optimised yet, and took up to twice the CPU of the later ones.
 */
const TELEMETRY_WARM_UP_BURSTS = 2;

/**
 * What telemetry costs a burst: two BFFs over HTTP/1.1, one with OpenTelemetry off (OTEL_SDK_DISABLED)
 * and one as `npm start` runs it (no collector), each with a scripted travel API and tabs of its own, all
 * open at once. They are sent their bursts in turn, one BFF at a time and each in turn first (off then on,
 * on then off, ...), so that what else the machine does over the run falls on both alike. With
 * `--cpu-prof`, each BFF's profile covers its bursts (and its idle time while the other one works).
 */
async function measureTelemetry(
  settings: { streams: number; tabsPerTraveler: number; bursts: number; deadline: number },
  outputsOf: (name: string) => Outputs,
): Promise<TelemetryRuns> {
  const { streams, tabsPerTraveler, bursts, deadline } = settings;
  const travelers = Math.ceil(streams / tabsPerTraveler);
  const sides = await Promise.all(
    (
      [
        ['off', { OTEL_SDK_DISABLED: 'true' }],
        ['on', {}],
      ] as const
    ).map(async ([side, env]) => {
      const travelApi = await asTheService(new ScriptedTravelApi(TEST_CONSUMER_SECRET)).start();
      const child = forkBff(travelApi, { env });
      return {
        side,
        travelApi,
        child,
        tabs: [] as Tab[],
        profileTo: outputsOf(`bff-telemetry-${side}`).profileTo,
      };
    }),
  );
  try {
    for (const { child, tabs } of sides) {
      const { port } = await reply(child, undefined, 'ready');
      const { cookies } = await reply(child, { type: 'sign-in', travelers }, 'signed-in');
      const cookieFor = (index: number) => cookies[Math.floor(index / tabsPerTraveler)] ?? '';
      await openTabs(port, streams, cookieFor, tabs, deadline);
      await waitUntil(() => tabs.every((tab) => tab.live), deadline);
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (const { child, profileTo } of sides) {
      if (profileTo !== undefined) await reply(child, { type: 'profile-start' }, 'profile');
    }
    const samples = { off: [] as number[], on: [] as number[] };
    const cpuMs = { off: [] as number[], on: [] as number[] };
    const missing = { off: 0, on: 0 };
    const burstP99 = { off: [] as number[], on: [] as number[] };
    for (let burst = -TELEMETRY_WARM_UP_BURSTS; burst < bursts; burst += 1) {
      for (const { side, travelApi, child, tabs } of burst % 2 === 0 ? sides : [...sides].reverse()) {
        const emit = (id: string) => travelApi.emit(notificationFixture(id), { traced: true });
        const one = await runBursts(child, tabs, 1, emit, deadline);
        if (burst < 0) continue;
        samples[side].push(...one.sorted);
        burstP99[side].push(percentile(one.sorted, 0.99));
        cpuMs[side].push(...one.cpuMs);
        missing[side] += one.missing;
      }
    }
    for (const { child, profileTo } of sides) {
      if (profileTo === undefined) continue;
      await reply(child, { type: 'profile-stop', file: profileTo }, 'profile');
      console.log(`CPU profile of the bursts: ${profileTo}`);
    }
    return {
      off: { ...summarise(samples.off, missing.off), cpuMs: cpuMs.off, burstP99: burstP99.off },
      on: { ...summarise(samples.on, missing.on), cpuMs: cpuMs.on, burstP99: burstP99.on },
    };
  } finally {
    for (const { tabs, child, travelApi } of sides) {
      for (const tab of tabs) tab.close();
      await closeChild(child);
      await travelApi.close();
    }
  }
}

function printTelemetry(runs: TelemetryRuns, bursts: number, streams: number): void {
  console.log(
    `Telemetry on and off: two BFFs (HTTP/1.1 upstream) sent ${bursts} bursts of ${streams} deliveries each, in turn`,
  );
  console.table({
    'BFF, telemetry off (OTEL_SDK_DISABLED)': burstRow(runs.off),
    'BFF, telemetry on (no collector)': burstRow(runs.on),
  });
  const p99 = (run: Delays) => percentile(run.sorted, 0.99);
  const cpu = (run: { cpuMs: number[] }) => median(run.cpuMs);
  console.log(
    `Burst p99 with telemetry on/off: ${(p99(runs.on) / Math.max(p99(runs.off), 0.001)).toFixed(2)}x ` +
      `(${ms(p99(runs.on))} vs ${ms(p99(runs.off))} ms; target <= 1.1x); CPU per burst (median) ` +
      `${(cpu(runs.on) / Math.max(cpu(runs.off), 0.001)).toFixed(2)}x`,
  );
  for (const side of ['off', 'on'] as const) {
    console.log(
      `  telemetry ${side}, each burst in turn: p99 ${runs[side].burstP99.map(ms).join(', ')} ms; ` +
        `CPU ${runs[side].cpuMs.map(ms).join(', ')} ms`,
    );
  }
}

/** `--telemetry-only`: the telemetry comparison alone. */
async function runTelemetryOnly(): Promise<void> {
  const streams = Number(values['telemetry-streams']);
  const bursts = Number(values.bursts);
  const profileDir = await outputFolder('cpu-prof');
  const runs = await measureTelemetry(
    {
      streams,
      tabsPerTraveler: Number(values['tabs-per-traveler']),
      bursts,
      deadline: Date.now() + Number(values.timeout) * 1000,
    },
    (name) => ({
      profileTo: profileDir === undefined ? undefined : path.join(profileDir, `${name}-bursts.cpuprofile`),
    }),
  );
  printTelemetry(runs, bursts, streams);
  console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
  if (runs.off.missing + runs.on.missing > 0) process.exitCode = 1;
}

/** How the travel API lets go of every notification stream at once in `--reconnect-only`. */
const LET_GO = {
  cut: 'every stream cut (a crash or a lost network): no `done`',
  done: 'every stream ended with `done` (a graceful restart)',
} as const;

/**
 * `--reconnect-only`: the travel API lets go of every upstream notification stream at once, as it does
 * when it restarts, and publishes one notification for every traveler at that moment. The BFF (HTTP/1.1
 * upstream, telemetry as `npm start` runs it) reopens each traveler's stream after its back-off, catches
 * up through the list and delivers the notification. Measured: each tab's wait for it from the moment the
 * streams were let go, the time until the travel API had every stream open again, the most stream opens
 * it received in any 100 ms, and the BFF's CPU until every tab had the notification. Once with the streams
 * cut, once with them ended by `done`.
 */
async function runReconnectOnly(): Promise<void> {
  const streams = Number(values.streams);
  const tabsPerTraveler = Number(values['tabs-per-traveler']);
  const travelers = Math.ceil(streams / tabsPerTraveler);
  const deadline = Date.now() + Number(values.timeout) * 1000;
  const profileDir = await outputFolder('cpu-prof');
  const travelApi = await asTheService(new ScriptedTravelApi(TEST_CONSUMER_SECRET)).start();
  const child = forkBff(travelApi, {});
  const tabs: Tab[] = [];
  const rows: Record<string, Record<string, string | number>> = {};
  try {
    const { port } = await reply(child, undefined, 'ready');
    const { cookies } = await reply(child, { type: 'sign-in', travelers }, 'signed-in');
    await openTabs(
      port,
      streams,
      (index) => cookies[Math.floor(index / tabsPerTraveler)] ?? '',
      tabs,
      deadline,
    );
    await waitUntil(() => tabs.every((tab) => tab.live), deadline);
    for (const letGo of ['cut', 'done'] as const) {
      await waitUntil(() => travelApi.notificationStreams.size === travelers, deadline);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const opensBefore = travelApi.notificationStreamOpens;
      const opensPer100Ms: number[] = [];
      let lastOpens = opensBefore;
      let allOpenAfterMs: number | undefined;
      if (profileDir !== undefined) await reply(child, { type: 'profile-start' }, 'profile');
      const cpuBefore = (await reply(child, { type: 'cpu' }, 'cpu')).microseconds;
      const id = `bench-reconnect-${letGo}-${Date.now()}`;
      const letGoAt = performance.now();
      const sampler = setInterval(() => {
        const opens = travelApi.notificationStreamOpens;
        opensPer100Ms.push(opens - lastOpens);
        lastOpens = opens;
        if (allOpenAfterMs === undefined && travelApi.notificationStreams.size === travelers)
          allOpenAfterMs = performance.now() - letGoAt;
      }, 100);
      if (letGo === 'cut') travelApi.dropStreams();
      else travelApi.sayDone();
      // Published while no stream is open: each traveler's catch-up finds it in the list.
      travelApi.emit(notificationFixture(id), { traced: true });
      await waitUntil(
        () => tabs.every((tab) => tab.received.has(id)),
        Math.min(deadline, Date.now() + 120_000),
      ).catch(() => undefined);
      const cpuMs = ((await reply(child, { type: 'cpu' }, 'cpu')).microseconds - cpuBefore) / 1000;
      if (profileDir !== undefined) {
        const file = path.join(profileDir, `bff-reconnect-${letGo}.cpuprofile`);
        await reply(child, { type: 'profile-stop', file }, 'profile');
        console.log(`CPU profile of the reconnection: ${file}`);
      }
      await waitUntil(() => allOpenAfterMs !== undefined, Math.min(deadline, Date.now() + 60_000)).catch(
        () => undefined,
      );
      clearInterval(sampler);
      const delays = delaysTo(tabs, id, letGoAt);
      rows[LET_GO[letGo]] = {
        'p50, ms': ms(percentile(delays.sorted, 0.5)),
        'p99, ms': ms(percentile(delays.sorted, 0.99)),
        'max, ms': ms(delays.sorted.at(-1) ?? 0),
        missing: delays.missing,
        'all streams open again after, ms':
          allOpenAfterMs === undefined ? 'not within 60 s' : ms(allOpenAfterMs),
        'stream opens': travelApi.notificationStreamOpens - opensBefore,
        'most opens in 100 ms': Math.max(0, ...opensPer100Ms),
        'BFF CPU, ms': ms(cpuMs),
      };
    }
  } finally {
    for (const tab of tabs) tab.close();
    await closeChild(child);
    await travelApi.close();
  }
  console.log(
    `The travel API lets go of all ${travelers} upstream notification streams at once (${streams} tabs, ` +
      `HTTP/1.1), publishing one notification for every traveler: each tab's wait for it`,
  );
  console.table(rows);
  console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
  if (Object.values(rows).some((row) => row.missing !== 0)) process.exitCode = 1;
}

async function runBenchmark(): Promise<void> {
  const streams = Number(values.streams);
  const tabsPerTraveler = Number(values['tabs-per-traveler']);
  const steadyRate = Number(values['steady-rate']);
  const steadySeconds = Number(values['steady-seconds']);
  const bursts = Number(values.bursts);
  const deadline = Date.now() + Number(values.timeout) * 1000;
  const travelers = Math.ceil(streams / tabsPerTraveler);
  const half = Math.floor(travelers / 2) * tabsPerTraveler;
  const travelerOf = (index: number) => Math.floor(index / tabsPerTraveler);
  const settings = { streams, tabsPerTraveler, steadyRate, steadySeconds, bursts, deadline };
  // The same scripted travel API twice: over HTTP/1.1, and over HTTPS with HTTP/2 on a local authority.
  const tlsDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-bench-tls-'));
  const certificates = await ensureLocalCertificates(tlsDir, 'Wayfare bench');
  const travelApi = await asTheService(new ScriptedTravelApi(TEST_CONSUMER_SECRET)).start();
  const travelApiH2 = await asTheService(
    new ScriptedTravelApi(TEST_CONSUMER_SECRET, {
      cert: await readFile(certificates.certFile),
      key: await readFile(certificates.keyFile),
    }),
  ).start();
  const tabs: Tab[] = [];
  const profileDir = await outputFolder('cpu-prof');
  const snapshotDir = await outputFolder('heap-snapshots');
  const outputsOf = (name: string): Outputs => ({
    profileTo: profileDir === undefined ? undefined : path.join(profileDir, `${name}-bursts.cpuprofile`),
    snapshotAs:
      snapshotDir === undefined
        ? undefined
        : (moment) => path.join(snapshotDir, `${name}-${moment}.heapsnapshot`),
  });
  try {
    const h1 = await measureBff(travelApi, undefined, settings, {}, outputsOf('bff'));
    const h2 = await measureBff(travelApiH2, certificates.caFile, settings);
    const telemetryStreams = Number(values['telemetry-streams']);
    const telemetryBursts = Number(values['telemetry-bursts']);
    const telemetry = await measureTelemetry(
      { ...settings, streams: telemetryStreams, bursts: telemetryBursts },
      outputsOf,
    );
    const emitToAll = (id: string) => travelApi.emit(notificationFixture(id), { traced: true });

    // The floor: the same clients, travelers and travel API (HTTP/1.1), relayed by node:http and undici alone.
    const floorChild = fork(import.meta.filename, ['--serve-floor', travelApi.url], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let floor: Opening;
    let floorBurst: Delays & { cpuMs: number[] };
    try {
      const floorPort = (await reply(floorChild, undefined, 'ready')).port;
      floor = await openAll(
        floorChild,
        floorPort,
        tabs,
        (index) => `traveler=${travelerId(travelerOf(index))}`,
        { streams, half, deadline },
        outputsOf('floor').snapshotAs,
      );
      await waitUntil(() => travelApi.notificationStreams.size >= travelers, deadline);
      floorBurst = await runBursts(
        floorChild,
        tabs,
        bursts,
        emitToAll,
        deadline,
        outputsOf('floor').profileTo,
      );
    } finally {
      for (const tab of tabs) tab.close();
      tabs.length = 0;
      await closeChild(floorChild);
    }

    const kib = (bytes: number) => (bytes / 1024).toFixed(1);
    const mib = (reports: MemoryReport[], field: 'rss' | 'heapTotal') =>
      reports.map((report) => (report[field] / 2 ** 20).toFixed(1)).join(' / ');
    const perStream = ({ empty, halfOpen, idle }: Opening) => ({
      rss: (idle.rss - empty.rss) / streams,
      marginalRss: (idle.rss - halfOpen.rss) / (streams - half),
      heap: (idle.heapUsed - empty.heapUsed) / streams,
      marginalHeap: (idle.heapUsed - halfOpen.heapUsed) / (streams - half),
    });
    const memoryColumn = (opening: Opening) => {
      const per = perStream(opening);
      return {
        'streams / upstream streams': `${opening.idle.sseStreams} / ${opening.idle.channels}`,
        'time to open all, s': opening.connectSeconds.toFixed(1),
        'RSS empty / half / all, MiB': mib([opening.empty, opening.halfOpen, opening.idle], 'rss'),
        'V8 committed empty / half / all, MiB': mib(
          [opening.empty, opening.halfOpen, opening.idle],
          'heapTotal',
        ),
        'RSS per stream, all over empty, KiB': kib(per.rss),
        'RSS per stream, marginal, KiB': kib(per.marginalRss),
        'V8 heap per stream, all over empty, KiB': kib(per.heap),
        'V8 heap per stream, marginal, KiB': kib(per.marginalHeap),
      };
    };
    console.log(
      `SSE fan-out: ${streams} browser streams, ${travelers} travelers (${tabsPerTraveler} tabs each). ` +
        'Memory of each idle server process (marginal: the second half of the travelers):',
    );
    const h1Column: Record<string, string> = {
      ...memoryColumn(h1.opening),
      'connections to the travel API': String(h1.upstreamConnections),
    };
    const h2Column: Record<string, string> = {
      ...memoryColumn(h2.opening),
      'connections to the travel API': String(h2.upstreamConnections),
    };
    const floorColumn: Record<string, string> = memoryColumn(floor);
    console.table(
      Object.fromEntries(
        Object.keys(h1Column).map((row) => [
          row,
          {
            'BFF, HTTP/1.1 upstream': h1Column[row],
            'BFF, HTTP/2 upstream': h2Column[row],
            'node:http + undici floor': floorColumn[row] ?? '',
          },
        ]),
      ),
    );
    const steadyRow = (run: BffRun) => ({
      'delay p50, ms': ms(percentile(run.steady.sorted, 0.5)),
      'delay p99, ms': ms(percentile(run.steady.sorted, 0.99)),
      'delay max, ms': ms(run.steady.sorted.at(-1) ?? 0),
      'BFF CPU share of one core, %': ((run.steadyCpuMs / (steadySeconds * 1000)) * 100).toFixed(1),
      'deliveries missing': run.steady.missing,
    });
    console.log(
      `Steady traffic: ${h1.emitted} notifications to single travelers over ${steadySeconds} s (${steadyRate}/s)`,
    );
    console.table({ 'BFF, HTTP/1.1 upstream': steadyRow(h1), 'BFF, HTTP/2 upstream': steadyRow(h2) });
    console.log(`Bursts: every traveler at once, ${bursts} times (${streams} deliveries each)`);
    console.table({
      'BFF, HTTP/1.1 upstream': burstRow(h1.burst),
      'BFF, HTTP/2 upstream': burstRow(h2.burst),
      'node:http + undici floor': burstRow(floorBurst),
    });
    printTelemetry(telemetry, telemetryBursts, telemetryStreams);
    console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
    let missing = telemetry.off.missing + telemetry.on.missing;
    for (const [label, run] of [
      ['HTTP/1.1', h1],
      ['HTTP/2', h2],
    ] as const) {
      const per = perStream(run.opening);
      const steadyP99 = percentile(run.steady.sorted, 0.99);
      missing += run.steady.missing + run.burst.missing;
      console.log(
        `Targets (${label} upstream): RSS per idle stream <= 20 KiB: ${per.rss <= 20 * 1024 ? 'met' : 'NOT met'} ` +
          `(${kib(per.rss)} all over empty, ${kib(per.marginalRss)} marginal); ` +
          `p99 < 250 ms: steady ${steadyP99 < 250 ? 'met' : 'NOT met'}, burst ` +
          `${percentile(run.burst.sorted, 0.99) < 250 ? 'met' : 'NOT met'}; ` +
          `nothing missing: ${run.steady.missing + run.burst.missing === 0 ? 'met' : 'NOT met'}`,
      );
    }
    if (missing > 0) process.exitCode = 1;
  } finally {
    for (const tab of tabs) tab.close();
    await travelApi.close();
    await travelApiH2.close();
    await rm(tlsDir, { recursive: true, force: true });
  }
}

/**
 * BFF memory per signed-in traveler with two tabs open: one browser stream per traveler (one stream per
 * browser) against two (a stream per tab), on the same process, over the empty process.
 */
async function runTravelerMemory(): Promise<void> {
  const travelers = Number(values['travelers-with-two-tabs']);
  const deadline = Date.now() + Number(values.timeout) * 1000;
  const travelApi = await asTheService(new ScriptedTravelApi(TEST_CONSUMER_SECRET)).start();
  const child = forkBff(travelApi);
  const tabs: Tab[] = [];
  try {
    const { port } = await reply(child, undefined, 'ready');
    const { cookies } = await reply(child, { type: 'sign-in', travelers }, 'signed-in');
    const empty = (await reply(child, { type: 'memory' }, 'memory')).report;
    // A stream for `count` more travelers (the next ones, in order), then the memory once they are idle.
    const openStreams = async (count: number) => {
      await openTabs(port, count, (index) => cookies[index % travelers] ?? '', tabs, deadline);
      await waitUntil(() => tabs.every((tab) => tab.live), deadline);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return (await reply(child, { type: 'memory' }, 'memory')).report;
    };
    // Each pass in two halves: what the second half adds is a traveler's own cost, without the one-off
    // growth of a process that goes from no stream to hundreds (its young generation, its pools).
    const half = Math.floor(travelers / 2);
    const firstHalf = await openStreams(half);
    const oneStream = await openStreams(travelers - half);
    const secondStreamsHalf = await openStreams(half);
    const twoStreams = await openStreams(travelers - half);

    const kib = (bytes: number) => (bytes / 1024).toFixed(1);
    const perTraveler = (field: 'rss' | 'heapUsed') => ({
      all: (report: MemoryReport) => (report[field] - empty[field]) / travelers,
      marginal: (from: MemoryReport, to: MemoryReport) => (to[field] - from[field]) / (travelers - half),
    });
    const rss = perTraveler('rss');
    const heap = perTraveler('heapUsed');
    console.log(
      `\nBFF memory per signed-in traveler with two tabs open (${travelers} travelers, over the empty ` +
        'process; marginal: what the second half of the travelers added):',
    );
    printTable(
      [
        '',
        'browser / upstream streams',
        'RSS per traveler, KiB',
        'RSS per traveler, marginal, KiB',
        'V8 heap per traveler, KiB',
        'V8 heap per traveler, marginal, KiB',
      ],
      [
        [
          'one stream per browser (the tabs share it)',
          `${oneStream.sseStreams} / ${oneStream.channels}`,
          kib(rss.all(oneStream)),
          kib(rss.marginal(firstHalf, oneStream)),
          kib(heap.all(oneStream)),
          kib(heap.marginal(firstHalf, oneStream)),
        ],
        [
          'one stream per tab (before)',
          `${twoStreams.sseStreams} / ${twoStreams.channels}`,
          kib(rss.all(twoStreams)),
          // The first stream's marginal cost and the second's.
          kib(rss.marginal(firstHalf, oneStream) + rss.marginal(secondStreamsHalf, twoStreams)),
          kib(heap.all(twoStreams)),
          kib(heap.marginal(firstHalf, oneStream) + heap.marginal(secondStreamsHalf, twoStreams)),
        ],
      ],
    );
    console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
  } finally {
    for (const tab of tabs) tab.close();
    await closeChild(child);
    await travelApi.close();
  }
}

/**
 * The BFF alone in a child process (with --expose-gc, for the memory reports) against `travelApi`: over
 * HTTPS with HTTP/2 when `caFile` names the authority of its certificate; `env` over this process's.
 */
function forkBff(
  travelApi: ScriptedTravelApi,
  { caFile, env = {} }: { caFile?: string | undefined; env?: Record<string, string> } = {},
): ChildProcess {
  return fork(
    import.meta.filename,
    ['--serve-bff', travelApi.url, ...(caFile === undefined ? [] : ['--travel-api-ca', caFile])],
    {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...env },
    },
  );
}

async function closeChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'close' } satisfies ToChild);
  await exited;
}

function shuffled(count: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [order[index], order[other]] = [order[other] ?? 0, order[index] ?? 0];
  }
  return order;
}

function reply<T extends FromChild['type']>(
  child: ChildProcess,
  request: ToChild | undefined,
  type: T,
): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`the child process exited (${code})`));
    };
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

function ms(value: number): string {
  return value.toFixed(1);
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** A row of a bursts table: the delays' percentiles, the CPU per burst, the deliveries missing. */
function burstRow(delays: Delays & { cpuMs: number[] }) {
  return {
    'p50, ms': ms(percentile(delays.sorted, 0.5)),
    'p99, ms': ms(percentile(delays.sorted, 0.99)),
    'max, ms': ms(delays.sorted.at(-1) ?? 0),
    'CPU per burst (median), ms': ms(median(delays.cpuMs)),
    missing: delays.missing,
  };
}

/**
 * The scripted travel API with the heartbeats the travel API stand-in sends on each notification stream
 * (every 15 s by default). Without them a traveler without notifications has a silent upstream stream,
 * which the BFF reopens after NOTIFICATION_UPSTREAM_IDLE_MS (60 s): a run longer than that would measure
 * every traveler's stream reopened at once.
 */
function asTheService(travelApi: ScriptedTravelApi): ScriptedTravelApi {
  travelApi.heartbeatMs = 15_000;
  return travelApi;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

if (values['serve-bff'] !== undefined) await serveBff(values['serve-bff'], values['travel-api-ca']);
else if (values['serve-floor'] !== undefined) serveFloor(values['serve-floor']);
else {
  if (values['telemetry-only']) await runTelemetryOnly();
  else if (values['reconnect-only']) await runReconnectOnly();
  else {
    if (!values['traveler-memory-only']) await runBenchmark();
    await runTravelerMemory();
  }
}
