/**
 * `npm run bench -- timing`: the waits the code promises, measured on the wall clock. The unit tests prove
 * each of them with fake timers (the wait is a timer of the promised length, and nothing goes out before
 * it fires); this measures how long they take on this machine, where load can only make them longer.
 *
 * - The travel API stand-in's injected latency (`PUT /admin/faults { latencyMs }`): from sending a /v1
 *   call to its answer (`GET /v1/app/update-check`), and from raising a notification to its live event on
 *   the traveler's open stream.
 * - The stand-in's pace between the fares of a stay's stream (`TRAVEL_API_STREAM_PACE_MS`): the mean gap
 *   between a stream's fares.
 * - The BFF's heartbeats (`SseRegistry`, one timer for every browser stream): the mean gap between each
 *   stream's heartbeats.
 *
 * Targets: every figure at least the promised wait (a heartbeat gap at least its interval less one tick of
 * the timer, a tenth of it). Exits non-zero below a target.
 *
 * Flags: --runs <n> (default 5), --latency-ms <n> (default 300), --pace-ms <n> (default 40),
 * --heartbeat-ms <n> (default 200), --streams <n> (default 12).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { SseRegistry } from '../bff/streams/sse-registry.ts';
import { encodeSseComment, encodeSseEvent, readSseStream, type SseMessage } from '../shared/sse.ts';
import { adminFetch } from '../upstream/travel-api/notifications/test-support/admin-fetch.ts';
import { isSoldOut } from '../upstream/travel-api/stays/quote-fares.ts';
import { signedFetch } from '../upstream/travel-api/test-support/signed-fetch.ts';
import { startTravelApi } from '../upstream/travel-api/test-support/start-travel-api.ts';
import { startTestIdentity, TEST_AUDIENCE } from '../upstream/travel-api/test-support/test-identity.ts';
import { addDays } from '../upstream/travel-api/time-zones.ts';
import { printTable } from './support/print-table.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'latency-ms': { type: 'string', default: '300' },
    'pace-ms': { type: 'string', default: '40' },
    'heartbeat-ms': { type: 'string', default: '200' },
    streams: { type: 'string', default: '12' },
  },
});
const RUNS = Number(values.runs);
const LATENCY_MS = Number(values['latency-ms']);
const PACE_MS = Number(values['pace-ms']);
const HEARTBEAT_MS = Number(values['heartbeat-ms']);
const STREAMS = Number(values.streams);

interface Row {
  what: string;
  samples: number[];
  /** The least every sample must be. */
  target: number;
}

/** Reads an SSE response in the background, noting when each message and comment arrived. */
function readTimed(response: Response, onMessage: (message: SseMessage, at: number) => void) {
  const controller = new AbortController();
  const comments: number[] = [];
  const reading = (async () => {
    try {
      for await (const message of readSseStream(response.body as ReadableStream<Uint8Array>, {
        signal: controller.signal,
        onComment: () => comments.push(performance.now()),
      })) {
        onMessage(message, performance.now());
      }
    } catch {
      // aborted when the measure is done
    }
  })();
  return {
    comments,
    stop: async () => {
      controller.abort();
      await reading;
    },
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * The mean gap between consecutive arrivals: a late arrival followed by a timely one arrive closer than
 * the server sent them, so a single gap says little; the span over the count does not shrink that way.
 */
const meanGap = (times: number[]) =>
  times.length < 2 ? 0 : ((times.at(-1) as number) - (times[0] as number)) / (times.length - 1);

async function measureStandIn(): Promise<Row[]> {
  const identity = await startTestIdentity();
  const api = await startTravelApi({
    IDENTITY_ISSUER: identity.issuer,
    TRAVEL_API_AUDIENCE: TEST_AUDIENCE,
    TRAVEL_API_STREAM_PACE_MS: String(PACE_MS),
  });
  const answers: number[] = [];
  const events: number[] = [];
  const fareGaps: number[] = [];
  try {
    const { sub, token } = await identity.newTraveler();
    const inbox = await signedFetch(api.baseUrl, {
      token,
      path: '/v1/me/notifications/stream',
      headers: { accept: 'text/event-stream' },
    });
    const arrivals = new Map<string, number>();
    const stream = readTimed(inbox, (message, at) => {
      if (message.event === 'notification' && message.id) arrivals.set(message.id, at);
    });
    await until(() => api.app.notifications.fanOut.streamCount(sub) === 1, 'the notification stream');
    await adminFetch(api.baseUrl, 'PUT', '/admin/faults', { latencyMs: LATENCY_MS });
    for (let run = 0; run < RUNS; run += 1) {
      const sent = performance.now();
      await signedFetch(api.baseUrl, { path: '/v1/app/update-check' });
      answers.push(performance.now() - sent);

      const raised = performance.now();
      const created = await adminFetch(api.baseUrl, 'POST', '/admin/notifications', {
        traveler: sub,
        eventType: 'GATE_CHANGED',
        severity: 'warning',
        title: `Timed ${run}`,
        body: 'Measured',
      });
      const { id } = ((await created.json()) as { notification: { id: string } }).notification;
      await until(() => arrivals.has(id), 'the notification event');
      events.push((arrivals.get(id) as number) - raised);
    }
    await adminFetch(api.baseUrl, 'DELETE', '/admin/faults');
    await stream.stop();

    const checkIn = addDays(new Date().toISOString().slice(0, 10), 50);
    const place = api.app.hotels.destinations('lisbon', 20).find((item) => {
      const hotel = item.type === 'property' ? api.app.hotels.byRawId(item.propertyId) : undefined;
      return hotel !== undefined && !isSoldOut(api.config.TRAVEL_API_SEED, hotel, checkIn);
    });
    for (let run = 0; run < RUNS; run += 1) {
      const fares: number[] = [];
      const response = await signedFetch(api.baseUrl, {
        token,
        path: '/v1/stays/fares',
        json: { property: place, checkIn, checkOut: addDays(checkIn, 2), rooms: [{ adults: 2 }] },
      });
      for await (const message of readSseStream(response.body as ReadableStream<Uint8Array>)) {
        if (message.event === 'fare') fares.push(performance.now());
      }
      fareGaps.push(meanGap(fares));
    }
  } finally {
    await api.close();
    await identity.close();
  }
  return [
    { what: `/v1 answer with latencyMs ${LATENCY_MS}`, samples: answers, target: LATENCY_MS },
    { what: `live notification event with latencyMs ${LATENCY_MS}`, samples: events, target: LATENCY_MS },
    { what: `mean gap between a stream's fares, pace ${PACE_MS} ms`, samples: fareGaps, target: PACE_MS },
  ];
}

async function measureHeartbeats(): Promise<Row> {
  const registry = new SseRegistry({
    heartbeatMs: HEARTBEAT_MS,
    heartbeat: encodeSseComment('heartbeat'),
    maxBufferedBytes: 64 * 1024,
    drainTimeoutMs: 5_000,
  });
  const server: Server = createServer((_request, response) => {
    registry.connect(response, encodeSseEvent({ event: 'reconnect', retry: 1000, data: {} })).open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const streams = await Promise.all(
      Array.from({ length: STREAMS }, async () => readTimed(await fetch(url), () => undefined)),
    );
    await until(
      () => streams.every((stream) => stream.comments.length > RUNS),
      `${RUNS + 1} heartbeats on every stream`,
    );
    registry.closeAll();
    await Promise.all(streams.map((stream) => stream.stop()));
    return {
      what: `mean gap between a stream's heartbeats, interval ${HEARTBEAT_MS} ms (${STREAMS} streams)`,
      samples: streams.map((stream) => meanGap(stream.comments)),
      target: HEARTBEAT_MS - HEARTBEAT_MS / 10,
    };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const rows = [...(await measureStandIn()), await measureHeartbeats()];
const sorted = (samples: number[]) => [...samples].sort((a, b) => a - b);
const ms = (value: number | undefined) => `${(value ?? 0).toFixed(0)} ms`;
let failed = false;
console.log(`${RUNS} runs each:`);
printTable(
  ['', 'samples', 'min', 'median', 'max', 'target (min)', 'result'],
  rows.map(({ what, samples, target }) => {
    const order = sorted(samples);
    const met = order.length > 0 && (order[0] as number) >= target;
    if (!met) failed = true;
    return [
      what,
      String(order.length),
      ms(order[0]),
      ms(order[Math.floor(order.length / 2)]),
      ms(order.at(-1)),
      `>= ${ms(target)}`,
      met ? 'ok' : 'FAIL',
    ];
  }),
);
console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1) ?? ''}`);
if (failed) process.exitCode = 1;
