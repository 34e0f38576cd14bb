/**
 * A stay search of `--properties` hotels (default 20), priced, seen from one browser, two ways in the same
 * run, alternating:
 *   before   the browser reads the search relay (POST /api/stays/search) and opens one fares stream per
 *            hotel (POST /api/stays/fares), four at a time, as the SPA did
 *   after    the browser reads one stream (POST /api/stays/priced-search); the BFF prices each hotel
 * and reports the time from sending the search to the first hotel card, the first price and the last
 * hotel priced, the most streams the browser held open at once, and how long the traveler's other tab
 * waited for GET /api/session (asked one after the other from the first card until the search ends) while
 * the browser also holds its notification stream, as the SPA does. The BFF runs in this process against
 * a scripted travel API (every call's signature checked) that paces its answers like a provider: a hotel
 * every `--search-gap-ms` (25 ms), and `--fares` rates (3) each `--fare-gap-ms` (40 ms) apart. The browser
 * is an undici agent with Chromium's six HTTP/1.1 connections per host.
 *
 * Flags: --properties <n> (20), --runs <n per way> (5), --search-gap-ms, --fares, --fare-gap-ms.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, fetch } from 'undici';
import { encodeSseEvent, readSseStream } from '#shared/sse.ts';
import {
  openUpstreamStream,
  ScriptedTravelApi,
  type StaysCall,
} from '../bff/test-support/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET } from '../bff/test-support/start-test-bff.ts';
import { LISBON_DESTINATION, sampleStayProperty, sampleUuid } from '../bff/test-support/stay-samples.ts';
import { printTable } from './support/print-table.ts';

const { values } = parseArgs({
  options: {
    properties: { type: 'string', default: '20' },
    runs: { type: 'string', default: '5' },
    'search-gap-ms': { type: 'string', default: '25' },
    fares: { type: 'string', default: '3' },
    'fare-gap-ms': { type: 'string', default: '40' },
  },
});
const PROPERTIES = Number(values.properties);
const RUNS = Number(values.runs);
const SEARCH_GAP_MS = Number(values['search-gap-ms']);
const FARES = Number(values.fares);
const FARE_GAP_MS = Number(values['fare-gap-ms']);
/** The longest the other tab's GET /api/session may take beside one priced search. */
const SESSION_TARGET_MS = 500;
/** The SPA's fares streams at once, before the BFF priced the search itself. */
const BROWSER_FARES_CONCURRENCY = 4;

const uuid = sampleUuid;
const property = (n: number) => sampleStayProperty(n, uuid(9999));
const search = {
  destination: LISBON_DESTINATION,
  checkIn: '2027-03-10',
  checkOut: '2027-03-12',
  rooms: [{ adults: 2, childrenAges: [] }],
  bookingProfile: false,
};

function fare(propertyId: string, searchSolutionId: string, index: number) {
  return {
    fareId: uuid(5000 + index),
    propertyId,
    searchSolutionId,
    solutionKey: null,
    roomName: 'Double room',
    bedType: 'Double',
    board: 'BREAKFAST',
    cancellation: { refundable: true, freeCancellationUntil: '2027-03-08T18:00:00+00:00' },
    nightlyPrice: 100 + index,
    totalPrice: 200 + 2 * index,
    currency: 'EUR',
    nights: 2,
    roomsLeft: 3,
    corporateRate: false,
  };
}

/** Answers stays calls as a provider would, paced; stops writing when the caller went away. */
async function answer(call: StaysCall): Promise<void> {
  openUpstreamStream(call);
  const write = async (event: string, data: unknown, gapMs: number) => {
    await sleep(gapMs);
    if (!call.res.destroyed) call.res.write(encodeSseEvent({ event, data }));
  };
  if (call.path === '/v1/stays/search') {
    for (let n = 1; n <= PROPERTIES; n += 1) await write('property', property(n), SEARCH_GAP_MS);
    const done = { searchId: uuid(9999), propertyCount: PROPERTIES, expiresAt: '2027-03-01T10:00:00Z' };
    if (!call.res.destroyed) call.res.end(encodeSseEvent({ event: 'done', data: done }));
    return;
  }
  const { propertyId, searchSolutionId } = call.body as { propertyId: string; searchSolutionId: string };
  for (let index = 0; index < FARES; index += 1)
    await write('fare', fare(propertyId, searchSolutionId, index), FARE_GAP_MS);
  if (!call.res.destroyed) call.res.end(encodeSseEvent({ event: 'done', data: { fareCount: FARES } }));
}

interface Timing {
  firstCardMs: number;
  firstPriceMs: number;
  allPricedMs: number;
  mostStreams: number;
  /** Each GET /api/session of the other tab while the search ran, from sending it to its whole answer. */
  sessionMs: number[];
}

/**
 * The traveler's other tab, on the same browser: asks GET /api/session, one call after the other, until
 * stopped; `stop` resolves with each call's time.
 */
function otherTab(base: string, headers: Record<string, string>, dispatcher: Agent) {
  let searching = true;
  const times: number[] = [];
  const asking = (async () => {
    while (searching) {
      const started = performance.now();
      const response = await fetch(`${base}/api/session`, { headers, dispatcher });
      await response.text();
      if (!response.ok) throw new Error(`GET /api/session answered ${response.status}`);
      times.push(performance.now() - started);
    }
  })();
  return {
    async stop(): Promise<number[]> {
      searching = false;
      await asking;
      return times;
    },
  };
}

/** Opens one SSE POST from the browser and yields its events. */
async function* stream(url: string, body: unknown, headers: Record<string, string>, dispatcher: Agent) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    dispatcher,
  });
  if (!response.ok || !response.body) throw new Error(`stream refused: ${response.status}`);
  yield* readSseStream(response.body as ReadableStream<Uint8Array>);
}

async function runBefore(base: string, headers: Record<string, string>, dispatcher: Agent): Promise<Timing> {
  const started = performance.now();
  let firstCard = 0;
  let firstPrice = 0;
  let open = 1;
  let mostStreams = 1;
  let tab: ReturnType<typeof otherTab> | undefined;
  const queue: ReturnType<typeof property>[] = [];
  const pricing = new Set<Promise<void>>();
  const price = async (found: ReturnType<typeof property>) => {
    open += 1;
    mostStreams = Math.max(mostStreams, open);
    const body = {
      searchSolutionId: found.searchSolutionId,
      propertyId: found.propertyId,
      solutionKey: found.solutionKey,
      checkIn: search.checkIn,
      checkOut: search.checkOut,
      rooms: search.rooms,
      bookingProfile: search.bookingProfile,
    };
    for await (const message of stream(`${base}/api/stays/fares`, body, headers, dispatcher)) {
      if (message.event === 'fare') firstPrice ||= performance.now() - started;
    }
    open -= 1;
  };
  const pump = () => {
    while (pricing.size < BROWSER_FARES_CONCURRENCY && queue.length > 0) {
      const next = queue.shift() as ReturnType<typeof property>;
      const running: Promise<void> = price(next).finally(() => {
        pricing.delete(running);
        pump();
      });
      pricing.add(running);
    }
  };
  for await (const message of stream(`${base}/api/stays/search`, search, headers, dispatcher)) {
    if (message.event !== 'property') continue;
    firstCard ||= performance.now() - started;
    tab ??= otherTab(base, headers, dispatcher);
    queue.push(JSON.parse(message.data) as ReturnType<typeof property>);
    pump();
  }
  open -= 1;
  while (pricing.size > 0) await Promise.race(pricing);
  const allPricedMs = performance.now() - started;
  return {
    firstCardMs: firstCard,
    firstPriceMs: firstPrice,
    allPricedMs,
    mostStreams,
    sessionMs: (await tab?.stop()) ?? [],
  };
}

async function runAfter(base: string, headers: Record<string, string>, dispatcher: Agent): Promise<Timing> {
  const started = performance.now();
  let firstCard = 0;
  let firstPrice = 0;
  let priced = 0;
  let tab: ReturnType<typeof otherTab> | undefined;
  for await (const message of stream(`${base}/api/stays/priced-search`, search, headers, dispatcher)) {
    if (message.event === 'property') {
      firstCard ||= performance.now() - started;
      tab ??= otherTab(base, headers, dispatcher);
    } else if (message.event === 'fare') firstPrice ||= performance.now() - started;
    else if (message.event === 'property-end') priced += 1;
  }
  const allPricedMs = performance.now() - started;
  if (priced !== PROPERTIES) throw new Error(`only ${priced} of ${PROPERTIES} hotels were priced`);
  return {
    firstCardMs: firstCard,
    firstPriceMs: firstPrice,
    allPricedMs,
    mostStreams: 1,
    sessionMs: (await tab?.stop()) ?? [],
  };
}

const travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
const bff = await startTestBff({
  TRAVEL_API_URL: travelApi.url,
  RATE_LIMIT_SEARCH_PER_MINUTE: '100000',
  RATE_LIMIT_FARES_PER_MINUTE: '100000',
});
let serving = true;
void (async () => {
  while (serving) void answer(await travelApi.nextStaysCall());
})();
// One browser: Chromium opens at most six HTTP/1.1 connections to a host.
const browser = new Agent({ connections: 6 });
const leaving = new AbortController();
try {
  const { headers } = await bff.signIn('5f1c2a7e-0b1d-4c5e-9a01-100000000003');
  // The browser's one notification stream (a tab holds it for all of them) keeps a connection too.
  const notifications = await fetch(`${bff.url}/api/notifications/stream?visible=1`, {
    headers: { ...headers, accept: 'text/event-stream' },
    dispatcher: browser,
    signal: leaving.signal,
  });
  if (!notifications.ok || !notifications.body)
    throw new Error(`notification stream: ${notifications.status}`);
  void notifications.body.pipeTo(new WritableStream()).catch(() => undefined);
  const results: Record<'before' | 'after', Timing[]> = { before: [], after: [] };
  await runAfter(bff.url, headers, browser); // warm-up: connections, JIT
  for (let run = 0; run < RUNS; run += 1) {
    results.before.push(await runBefore(bff.url, headers, browser));
    results.after.push(await runAfter(bff.url, headers, browser));
  }
  if (travelApi.rejectedSignatures > 0) throw new Error('the travel API refused a signature');

  const median = (samples: number[]) =>
    [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
  const cell = (timings: Timing[], field: Exclude<keyof Timing, 'sessionMs'>) => {
    const samples = timings.map((timing) => timing[field]);
    return `${median(samples).toFixed(0)} (${Math.min(...samples).toFixed(0)}-${Math.max(...samples).toFixed(0)})`;
  };
  const sessionCell = (timings: Timing[]) => {
    const samples = timings.flatMap((timing) => timing.sessionMs);
    if (samples.length === 0) return '-';
    return `${median(samples).toFixed(0)} / ${Math.max(...samples).toFixed(0)} (${samples.length} calls)`;
  };
  console.log(
    `Stay search of ${PROPERTIES} hotels, ${FARES} rates each; provider pacing ${SEARCH_GAP_MS} ms per hotel, ` +
      `${FARE_GAP_MS} ms per rate; ${RUNS} runs each way, median (min-max), ms:`,
  );
  printTable(
    [
      '',
      'first card',
      'first price',
      'all priced',
      'browser streams at once',
      'other tab GET /api/session, median / max',
    ],
    (['before', 'after'] as const).map((way) => [
      way === 'before'
        ? 'before: search relay + a fares stream per hotel (4 at a time)'
        : 'after: one priced-search stream',
      cell(results[way], 'firstCardMs'),
      cell(results[way], 'firstPriceMs'),
      cell(results[way], 'allPricedMs'),
      String(Math.max(...results[way].map((timing) => timing.mostStreams))),
      sessionCell(results[way]),
    ]),
  );
  const sessionMax = Math.max(...results.after.flatMap((timing) => timing.sessionMs));
  console.log(
    `Target: the other tab's GET /api/session under ${SESSION_TARGET_MS} ms while one priced search streams: ` +
      `max ${sessionMax.toFixed(0)} ms, ${sessionMax < SESSION_TARGET_MS ? 'met' : 'NOT MET'}.`,
  );
  if (sessionMax >= SESSION_TARGET_MS) process.exitCode = 1;
  console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
} finally {
  serving = false;
  leaving.abort();
  await browser.close();
  await bff.close();
  await travelApi.close();
}
