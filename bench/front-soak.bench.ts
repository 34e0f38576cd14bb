/**
 * `npm run bench -- front-soak`: whether the fleet's memory stays flat under steady mixed traffic through
 * the TLS front.
 *
 * Starts the fleet the way an operator does (bench/support/fleet.ts: `scripts/start-fleet.ts` with the
 * demo admin API, on free loopback ports), signs test travelers in through the front and the identity
 * stand-in's sign-in form, and for `--minutes` sends a fixed rate of requests through the front: session
 * reads, bookings lists, flight searches and streamed stay searches, while some travelers hold their
 * notification stream open and a notification is raised for one of them now and then (the travel API's
 * admin API). Every 30 s it reads the resident memory (VmRSS) of each BFF instance and of the front's
 * nginx processes together. At the end it prints, per process, the memory after the warm-up (the first
 * 5 minutes, or a fifth of a shorter run) and at the end, the growth per hour from a least-squares slope
 * over the samples after the warm-up, and the requests sent and failed with their p50 and p99 latency.
 *
 * Flags: --minutes <n> (default 30), --rate <requests per second> (default 4), --travelers <n>
 * (default 6), --streams <n> (travelers holding a notification stream open, default 3).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, setGlobalDispatcher } from 'undici';
import { TestBrowser, formAction } from '../bff/test-support/sign-in-stack.ts';
import { LOCAL_SECRETS } from '../scripts/local-credentials.ts';
import { residentBytes, startBenchFleet } from './support/fleet.ts';
import { printTable } from './support/print-table.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '4' },
    travelers: { type: 'string', default: '6' },
    streams: { type: 'string', default: '3' },
  },
});
const MINUTES = Number(values.minutes);
const RATE = Number(values.rate);
const TRAVELERS = Number(values.travelers);
const STREAMS = Math.min(Number(values.streams), TRAVELERS);
const SAMPLE_MS = 30_000;
const WARM_UP_MS = Math.min(5 * 60_000, (MINUTES * 60_000) / 5);
/** Requests in flight at most: a request that would go beyond is counted as failed, not queued. */
const MAX_IN_FLIGHT = 64;
const REQUEST_TIMEOUT_MS = 30_000;
/** One notification raised per this many requests. */
const NOTIFY_EVERY = 40;

const fleet = await startBenchFleet();
setGlobalDispatcher(
  new Agent({
    connect: { ca: [readFileSync(fleet.frontCaFile, 'utf8'), readFileSync(fleet.travelApiCaFile, 'utf8')] },
  }),
);
const base = fleet.appOrigin;
const headers = { 'x-requested-with': 'wayfare', 'content-type': 'application/json' };

interface Traveler {
  email: string;
  browser: TestBrowser;
}

async function signIn(n: number): Promise<Traveler> {
  // The identity stand-in's test traveler N (upstream/identity/accounts.ts), known without registering.
  const email = `traveler${n}@wayfare.test`;
  const password = 'test-pass';
  const browser = new TestBrowser(new Map());
  const login = await browser.navigate(`${base}/auth/login?returnTo=/`);
  const html = await login.final.text();
  const submitted = await browser.navigate(new URL(formAction(html), login.url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  await submitted.final.arrayBuffer();
  const session = await browser.fetch(`${base}/api/session`, { headers });
  const body = (await session.json()) as { authenticated?: boolean };
  if (session.status !== 200 || body.authenticated === false) {
    throw new Error(`Traveler ${email} is not signed in: ${session.status} ${JSON.stringify(body)}`);
  }
  return { email, browser };
}

/** A city destination as the stand-in's destination list offers it, searched as the stays page does. */
async function cityDestination(traveler: Traveler): Promise<unknown> {
  const response = await fetch(`${base}/api/stays/destinations?query=Lisbon`, {
    headers: { ...headers, cookie: cookieOf(traveler) },
  });
  const body = (await response.json()) as { items: Array<{ type: string }> };
  const city = body.items.find((item) => item.type === 'city');
  if (!city) throw new Error(`No city among the destinations: ${JSON.stringify(body)}`);
  return city;
}

const firstTraveler = 90_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
const travelers: Traveler[] = [];
for (let index = 0; index < TRAVELERS; index += 1) travelers.push(await signIn(firstTraveler + index));
const destination = await cityDestination(travelers[0]!);

function cookieOf(traveler: Traveler): string {
  return ['wayfare_session', '__Host-wayfare_session']
    .map((name) => [name, traveler.browser.cookie(base, name)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

const stop = new AbortController();
let streamsEnded = 0;
async function holdStream(traveler: Traveler): Promise<void> {
  while (!stop.signal.aborted) {
    try {
      const response = await fetch(`${base}/api/notifications/stream?visible=1`, {
        headers: { ...headers, cookie: cookieOf(traveler) },
        signal: stop.signal,
      });
      if (!response.body) throw new Error(`stream refused: ${response.status}`);
      for await (const chunk of response.body) void chunk;
    } catch {
      if (stop.signal.aborted) return;
    }
    streamsEnded += 1;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
const streams = travelers.slice(0, STREAMS).map((traveler) => holdStream(traveler));

const tomorrowPlus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const kinds = ['session', 'bookings', 'flights', 'stays'] as const;
type Kind = (typeof kinds)[number] | 'notify';
async function send(kind: Kind, traveler: Traveler): Promise<void> {
  const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const init = (body?: unknown): RequestInit => ({
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, cookie: cookieOf(traveler) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal,
  });
  let response: Response;
  if (kind === 'session') response = await fetch(`${base}/api/session`, init());
  else if (kind === 'bookings') response = await fetch(`${base}/api/bookings`, init());
  else if (kind === 'flights') {
    response = await fetch(
      `${base}/api/flights/search`,
      init({
        itinerary: [{ origin: 'ZRH', destination: 'JFK', date: tomorrowPlus(30) }],
        passengers: { adults: 1 },
        cabinClass: 'economy',
      }),
    );
  } else if (kind === 'stays') {
    response = await fetch(
      `${base}/api/stays/search`,
      init({
        destination,
        checkIn: tomorrowPlus(40),
        checkOut: tomorrowPlus(42),
        rooms: [{ adults: 2, childrenAges: [] }],
        bookingProfile: false,
      }),
    );
  } else {
    const streaming = travelers[Math.floor(Math.random() * STREAMS)] ?? traveler;
    response = await fetch(`${fleet.travelApiOrigin}/admin/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${LOCAL_SECRETS.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ traveler: streaming.email, type: 'SEGMENT_DELAYED', minutes: 15 }),
      signal,
    });
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${kind} answered ${response.status}: ${text.slice(0, 160)}`);
}

const latencies: number[] = [];
const failures = new Map<string, number>();
let sent = 0;
let failed = 0;
let inFlight = 0;
const pending = new Set<Promise<void>>();

interface Sample {
  atMs: number;
  bytes: Array<number | undefined>;
}
const samples: Sample[] = [];
const started = performance.now();
const sample = () => {
  const { bffs, nginx } = fleet.pids();
  const front = nginx.reduce((sum, pid) => sum + (residentBytes(pid) ?? 0), 0);
  samples.push({
    atMs: performance.now() - started,
    bytes: [...bffs.map((pid) => (pid === undefined ? undefined : residentBytes(pid))), front || undefined],
  });
};
sample();
const sampler = setInterval(sample, SAMPLE_MS);

const endAt = started + MINUTES * 60_000;
const intervalMs = 1000 / RATE;
let next = performance.now();
while (performance.now() < endAt) {
  const kind: Kind = sent % NOTIFY_EVERY === NOTIFY_EVERY - 1 ? 'notify' : kinds[sent % kinds.length]!;
  const traveler = travelers[sent % travelers.length]!;
  sent += 1;
  if (inFlight >= MAX_IN_FLIGHT) {
    failed += 1;
    failures.set('over the in-flight cap', (failures.get('over the in-flight cap') ?? 0) + 1);
  } else {
    inFlight += 1;
    const at = performance.now();
    const request: Promise<void> = send(kind, traveler)
      .then(() => {
        latencies.push(performance.now() - at);
      })
      .catch((error: unknown) => {
        failed += 1;
        const reason = error instanceof Error ? error.message : String(error);
        failures.set(reason, (failures.get(reason) ?? 0) + 1);
      })
      .finally(() => {
        inFlight -= 1;
        pending.delete(request);
      });
    pending.add(request);
  }
  next += intervalMs;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
}
await Promise.allSettled([...pending]);
clearInterval(sampler);
sample();
stop.abort();
await Promise.allSettled(streams);
await fleet.stop();

/** Least-squares slope of bytes over time, in MB per hour. */
function growthPerHour(points: Array<[number, number]>): number | undefined {
  if (points.length < 2) return undefined;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const numerator = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const denominator = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return denominator === 0 ? undefined : (numerator / denominator) * 3_600_000;
}
const mb = (bytes: number | undefined) => (bytes === undefined ? 'gone' : (bytes / 1024 / 1024).toFixed(1));
const names = [...fleet.bffPorts.map((_, index) => `bff-${index + 1}`), 'front (nginx, all processes)'];
const afterWarmUp = samples.filter((entry) => entry.atMs >= WARM_UP_MS);
const rows = names.map((name, column) => {
  const points = afterWarmUp.flatMap((entry) => {
    const bytes = entry.bytes[column];
    return bytes === undefined ? [] : [[entry.atMs, bytes] as [number, number]];
  });
  const slope = growthPerHour(points);
  return [
    name,
    mb(afterWarmUp[0]?.bytes[column]),
    mb(samples.at(-1)?.bytes[column]),
    slope === undefined ? 'n/a' : `${slope >= 0 ? '+' : ''}${(slope / 1024 / 1024).toFixed(1)}`,
    String(points.length),
  ];
});
latencies.sort((a, b) => a - b);
const quantile = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;

console.log(
  `${MINUTES} min at ${RATE} requests/s through ${base}, ${TRAVELERS} travelers, ${STREAMS} notification streams held; ` +
    `warm-up ${(WARM_UP_MS / 60_000).toFixed(1)} min; ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}\n`,
);
printTable(['process', 'RSS after warm-up (MB)', 'RSS at end (MB)', 'growth (MB/h)', 'samples'], rows);
console.log('');
printTable(
  ['requests sent', 'failed', 'p50 (ms)', 'p99 (ms)', 'streams reopened'],
  [[String(sent), String(failed), quantile(0.5).toFixed(0), quantile(0.99).toFixed(0), String(streamsEnded)]],
);
for (const [reason, count] of failures) console.log(`failed: ${count} × ${reason}`);
