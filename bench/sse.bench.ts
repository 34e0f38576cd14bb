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
 * The BFF (and the floor server) run in a child process (with --expose-gc), so the clients and the
 * travel API do not share its event loop or its memory; the clients are plain sockets that scan the
 * bytes for `id:` lines, so that reading 10,000 streams costs the measuring process little. Each
 * traveler has `--tabs-per-traveler` streams, so the BFF also holds one upstream stream per traveler
 * (counted in the memory per stream).
 *
 * Flags: --streams <n> (default 10000), --tabs-per-traveler <n> (default 2), --steady-rate <per second>
 * (default 100), --steady-seconds <n> (default 40: more than the longest heartbeat interval), --bursts <n>
 * (default 5), --timeout <seconds for the whole run> (default 600).
 */
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { notificationFixture, ScriptedTravelApi } from '../bff/streams/testing/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET } from '../bff/streams/testing/start-test-bff.ts';
import { hubEventFrame } from '../bff/notifications/encode-hub-event.ts';

const { values } = parseArgs({
  options: {
    'serve-bff': { type: 'string' },
    'serve-floor': { type: 'boolean', default: false },
    streams: { type: 'string', default: '10000' },
    'tabs-per-traveler': { type: 'string', default: '2' },
    'steady-rate': { type: 'string', default: '100' },
    'steady-seconds': { type: 'string', default: '40' },
    bursts: { type: 'string', default: '5' },
    timeout: { type: 'string', default: '600' },
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
  | { type: 'burst'; id: string }
  | { type: 'close' };
type FromChild =
  | { type: 'ready'; port: number }
  | { type: 'signed-in'; cookies: string[] }
  | { type: 'memory'; report: MemoryReport }
  | { type: 'cpu'; microseconds: number }
  | { type: 'burst-written' };

const travelerId = (index: number) => `5f1c2a7e-0b1d-4c5e-9a01-${String(index).padStart(12, '0')}`;

function cpuMicroseconds(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

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
          cookies.push((await bff.signIn(travelerId(index))).headers.cookie ?? '');
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
            heapTotal: usage.heapTotal,
            sseStreams: bff.app.sse.size,
            channels: hub.channels,
          },
        });
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

/**
 * Child: the floor of a burst. A bare TCP server that answers each connection with the SSE headers and
 * a `live` status, then writes one ready-made HTTP chunk (the bytes the BFF writes for a notification)
 * to every socket when told: no HTTP parser, no hub, no upstream.
 */
function serveFloor(): void {
  const sockets = new Set<net.Socket>();
  const head = Buffer.from(
    'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n',
    'latin1',
  );
  const live = hubEventFrame({ type: 'status', state: 'live' }).chunk;
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      socket.write(head);
      socket.write(live);
      sockets.add(socket);
    });
    socket.on('error', () => sockets.delete(socket));
    socket.on('close', () => sockets.delete(socket));
  });
  const send = (message: FromChild) => process.send?.(message);
  process.on('message', (message: ToChild) => {
    if (message.type === 'burst') {
      const frame = hubEventFrame({
        type: 'notification',
        notification: notificationFixture(message.id),
        alert: false,
        replay: false,
      }).chunk;
      for (const socket of sockets) socket.write(frame);
      send({ type: 'burst-written' });
    } else if (message.type === 'cpu') {
      send({ type: 'cpu', microseconds: cpuMicroseconds() });
    } else if (message.type === 'close') {
      for (const socket of sockets) socket.destroy();
      server.close(() => process.exit(0));
    }
  });
  server.listen(0, '127.0.0.1', () => {
    send({ type: 'ready', port: (server.address() as net.AddressInfo).port });
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

  #scan(text: string): void {
    const now = performance.now();
    const all = this.#carry + text;
    const cut = all.lastIndexOf('\n');
    this.#carry = all.slice(cut + 1);
    let at = all.indexOf('id: ');
    while (at !== -1 && at < cut) {
      const end = all.indexOf('\n', at);
      this.received.set(all.slice(at + 4, end), now);
      at = all.indexOf('id: ', end);
    }
    if (!this.live && all.includes('data: {"state":"live"')) this.live = true;
  }
}

interface Delays {
  sorted: number[];
  missing: number;
}

function summarise(samples: number[], missing: number): Delays {
  return { sorted: [...samples].sort((a, b) => a - b), missing };
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

/** Every traveler at once, `bursts` times: the delay of each delivery and the sender's CPU per burst. */
async function runBursts(
  child: ChildProcess,
  tabs: Tab[],
  bursts: number,
  emit: (id: string) => void,
  deadline: number,
): Promise<Delays & { cpuMs: number[] }> {
  const samples: number[] = [];
  const cpuMs: number[] = [];
  let missing = 0;
  for (let burst = 0; burst < bursts; burst += 1) {
    const id = `bench-burst-${burst}-${Date.now()}`;
    const cpuBefore = (await reply(child, { type: 'cpu' }, 'cpu')).microseconds;
    const emittedAt = performance.now();
    emit(id);
    await waitUntil(
      () => tabs.every((tab) => tab.received.has(id)),
      Math.min(deadline, Date.now() + 30_000),
    ).catch(() => undefined);
    for (const tab of tabs) {
      const at = tab.received.get(id);
      if (at === undefined) missing += 1;
      else samples.push(at - emittedAt);
    }
    cpuMs.push(((await reply(child, { type: 'cpu' }, 'cpu')).microseconds - cpuBefore) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { ...summarise(samples, missing), cpuMs };
}

async function runBenchmark(): Promise<void> {
  const streams = Number(values.streams);
  const tabsPerTraveler = Number(values['tabs-per-traveler']);
  const steadyRate = Number(values['steady-rate']);
  const steadySeconds = Number(values['steady-seconds']);
  const bursts = Number(values.bursts);
  const deadline = Date.now() + Number(values.timeout) * 1000;
  const travelers = Math.ceil(streams / tabsPerTraveler);
  const travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  const child = fork(import.meta.filename, ['--serve-bff', travelApi.url], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const tabs: Tab[] = [];
  try {
    const { port } = await reply(child, undefined, 'ready');
    const { cookies } = await reply(child, { type: 'sign-in', travelers }, 'signed-in');
    // Tab i belongs to traveler floor(i / tabs per traveler): a traveler's tabs open one after the other,
    // so each half of the streams holds half of the upstream streams too, and the marginal memory of the
    // second half counts its share of them.
    const travelerOf = (index: number) => Math.floor(index / tabsPerTraveler);
    const cookieFor = (index: number) => cookies[travelerOf(index)] ?? '';
    const empty = (await reply(child, { type: 'memory' }, 'memory')).report;

    const connectStarted = performance.now();
    const half = Math.floor(travelers / 2) * tabsPerTraveler;
    await openTabs(port, half, cookieFor, tabs, deadline);
    await waitUntil(() => tabs.every((tab) => tab.live), deadline);
    const halfOpen = (await reply(child, { type: 'memory' }, 'memory')).report;
    await openTabs(port, streams - half, cookieFor, tabs, deadline);
    await waitUntil(() => tabs.every((tab) => tab.live), deadline);
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = (await reply(child, { type: 'memory' }, 'memory')).report;

    // Steady traffic: single travelers, in a shuffled order, at `steadyRate` notifications per second.
    const tabsOf = (traveler: number) => {
      const of: Tab[] = [];
      const first = traveler * tabsPerTraveler;
      for (let index = first; index < Math.min(first + tabsPerTraveler, tabs.length); index += 1) {
        of.push(tabs[index] as Tab);
      }
      return of;
    };
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
          travelApi.emitTo(travelerId(traveler), notificationFixture(id));
        }
        if (elapsed >= steadySeconds) {
          clearInterval(tick);
          resolve();
        }
      }, 5);
    });
    const steadyCpuMs = ((await reply(child, { type: 'cpu' }, 'cpu')).microseconds - steadyCpuBefore) / 1000;
    const steadyTabs = new Map<number, Tab[]>();
    for (const { traveler } of emitted)
      if (!steadyTabs.has(traveler)) steadyTabs.set(traveler, tabsOf(traveler));
    await waitUntil(
      () =>
        emitted.every(({ id, traveler }) => steadyTabs.get(traveler)?.every((tab) => tab.received.has(id))),
      Math.min(deadline, Date.now() + 10_000),
    ).catch(() => undefined);
    const steadySamples: number[] = [];
    let steadyMissing = 0;
    for (const { id, traveler, at } of emitted) {
      for (const tab of steadyTabs.get(traveler) ?? []) {
        const receivedAt = tab.received.get(id);
        if (receivedAt === undefined) steadyMissing += 1;
        else steadySamples.push(receivedAt - at);
      }
    }
    const steady = summarise(steadySamples, steadyMissing);

    const burst = await runBursts(
      child,
      tabs,
      bursts,
      (id) => travelApi.emit(notificationFixture(id)),
      deadline,
    );

    for (const tab of tabs) tab.close();
    tabs.length = 0;
    await closeChild(child);

    // The floor: the same clients and the same bytes, from a bare TCP server.
    const floorChild = fork(import.meta.filename, ['--serve-floor'], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let floor: Delays & { cpuMs: number[] };
    try {
      const floorPort = (await reply(floorChild, undefined, 'ready')).port;
      await openTabs(floorPort, streams, () => '', tabs, deadline);
      await waitUntil(() => tabs.every((tab) => tab.live), deadline);
      floor = await runBursts(
        floorChild,
        tabs,
        bursts,
        (id) => floorChild.send({ type: 'burst', id } satisfies ToChild),
        deadline,
      );
    } finally {
      for (const tab of tabs) tab.close();
      await closeChild(floorChild);
    }

    const kib = (bytes: number) => (bytes / 1024).toFixed(1);
    const ms = (value: number) => value.toFixed(1);
    const rssPerStream = (idle.rss - empty.rss) / streams;
    const marginalRss = (idle.rss - halfOpen.rss) / (streams - half);
    const heapPerStream = (idle.heapUsed - empty.heapUsed) / streams;
    const marginalHeap = (idle.heapUsed - halfOpen.heapUsed) / (streams - half);
    const medianOf = (list: number[]) =>
      percentile(
        [...list].sort((a, b) => a - b),
        0.5,
      );
    console.log(
      `SSE fan-out: ${streams} browser streams, ${travelers} travelers (${tabsPerTraveler} tabs each)`,
    );
    console.table({
      'streams open (BFF count)': idle.sseStreams,
      'upstream streams (hub channels)': idle.channels,
      'time to open all, s': connectSeconds.toFixed(1),
      'RSS empty / half / all open, MiB': [empty.rss, halfOpen.rss, idle.rss]
        .map((bytes) => (bytes / 2 ** 20).toFixed(1))
        .join(' / '),
      'RSS per idle stream (all over empty), KiB': kib(rssPerStream),
      'RSS per idle stream (marginal, second half), KiB': kib(marginalRss),
      'V8 heap per idle stream (all over empty), KiB': kib(heapPerStream),
      'V8 heap per idle stream (marginal), KiB': kib(marginalHeap),
      // What V8 has reserved, live or not (its young generation grows to its maximum under load).
      'V8 heap committed empty / half / all open, MiB': [empty.heapTotal, halfOpen.heapTotal, idle.heapTotal]
        .map((bytes) => (bytes / 2 ** 20).toFixed(1))
        .join(' / '),
    });
    console.log(
      `Steady traffic: ${emitted.length} notifications to single travelers over ${steadySeconds} s ` +
        `(${steadyRate}/s), ${steadySamples.length} deliveries`,
    );
    console.table({
      'delay p50, ms': ms(percentile(steady.sorted, 0.5)),
      'delay p99, ms': ms(percentile(steady.sorted, 0.99)),
      'delay max, ms': ms(steady.sorted.at(-1) ?? 0),
      'BFF CPU share of one core, %': ((steadyCpuMs / (steadySeconds * 1000)) * 100).toFixed(1),
      'deliveries missing': steady.missing,
    });
    console.log(`Bursts: every traveler at once, ${bursts} times (${streams} deliveries each)`);
    console.table({
      BFF: {
        'p50, ms': ms(percentile(burst.sorted, 0.5)),
        'p99, ms': ms(percentile(burst.sorted, 0.99)),
        'max, ms': ms(burst.sorted.at(-1) ?? 0),
        'CPU per burst (median), ms': ms(medianOf(burst.cpuMs)),
        missing: burst.missing,
      },
      'bare TCP floor': {
        'p50, ms': ms(percentile(floor.sorted, 0.5)),
        'p99, ms': ms(percentile(floor.sorted, 0.99)),
        'max, ms': ms(floor.sorted.at(-1) ?? 0),
        'CPU per burst (median), ms': ms(medianOf(floor.cpuMs)),
        missing: floor.missing,
      },
    });
    console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
    const steadyP99 = percentile(steady.sorted, 0.99);
    const met = marginalRss <= 20 * 1024 && steadyP99 < 250 && steady.missing + burst.missing === 0;
    console.log(
      `Targets (<= 20 KiB RSS per idle stream, marginal; steady p99 < 250 ms; nothing missing): ${met ? 'met' : 'NOT met'}`,
    );
    if (steady.missing + burst.missing > 0) process.exitCode = 1;
  } finally {
    for (const tab of tabs) tab.close();
    await closeChild(child);
    await travelApi.close();
  }
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

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

if (values['serve-bff'] !== undefined) await serveBff(values['serve-bff']);
else if (values['serve-floor']) serveFloor();
else await runBenchmark();
