import { spawn } from 'node:child_process';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { submitIdentitySignIn } from '../fixtures.ts';
import { test } from './fleet-test.ts';
import { isoDateFromToday } from '../support/dates.ts';
import { raiseDelay, type RaisedNotification } from '../support/notifications.ts';
import { FLEET, FLEET_ORIGIN } from '../support/stack.ts';
import { testTraveler } from '../support/test-travelers.ts';

/**
 * The upgrade procedure of docs/scale-out.md under traffic: `npm run fleet:roll` restarts both BFF
 * instances of the fleet in turn while a load loop reads the session and the bookings list and searches
 * stays through the front, and notifications are raised all along to a traveler whose app is open. Not one
 * request fails, the app's live stream moves to the other instance and back, and every notification
 * reaches it exactly once.
 */

const traveler = testTraveler(300);
/** Requests the loop keeps in flight at once. */
const LOOP_WORKERS = 3;
/** Within the per-session quota of searches (RATE_LIMIT_SEARCH_PER_MINUTE, 30). */
const MAX_SEARCHES = 12;
/** A bound for the loop, whatever happens to the roll. */
const MAX_REQUESTS = 2_000;
const APP_HEADERS = { 'x-requested-with': 'wayfare' };

interface StreamRecord {
  /** Each notification id the app's stream delivered, with how many times. */
  ids: Record<string, number>;
  /** When each stream of the app opened and ended (ms since the page's origin), and which instance served it. */
  streams: { instance: string; openedAt: number; endedAt?: number }[];
}

/**
 * Records what the app's notification stream delivers, below the app: every `id:` of a `notification`
 * event, counted, and when each stream opened and ended. A notification the stream brought twice shows
 * here even where the inbox would hide the repeat.
 */
async function recordStream(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record: StreamRecord = { ids: {}, streams: [] };
    (window as unknown as { __stream: StreamRecord }).__stream = record;
    const original = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await original(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.includes('/api/notifications/stream?') || !response.ok || response.body === null)
        return response;
      const [forApp, forRecord] = response.body.tee();
      const entry: StreamRecord['streams'][number] = {
        instance: (response.headers.get('x-wayfare-instance') ?? '').split(', ').at(-1) ?? '',
        openedAt: performance.now(),
      };
      record.streams.push(entry);
      void (async () => {
        const reader = forRecord.pipeThrough(new TextDecoderStream()).getReader();
        let pending = '';
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            pending += value;
            const frames = pending.split('\n\n');
            pending = frames.pop() ?? '';
            for (const frame of frames) {
              if (!/^event: notification$/m.test(frame)) continue;
              const id = /^id: (.*)$/m.exec(frame)?.[1];
              if (id !== undefined) record.ids[id] = (record.ids[id] ?? 0) + 1;
            }
          }
        } catch {
          // The app aborted the stream: it ended here too.
        }
        entry.endedAt = performance.now();
      })();
      return new Response(forApp, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  });
}

function streamRecord(page: Page): Promise<StreamRecord> {
  return page.evaluate(() => (window as unknown as { __stream: StreamRecord }).__stream);
}

/** Runs `npm run fleet:roll` against the journeys' fleet; resolves with its output once every instance is back. */
function rollFleet(): Promise<string> {
  return new Promise((resolve, reject) => {
    const roll = spawn(process.execPath, ['scripts/fleet-roll.ts'], {
      env: { ...process.env, WAYFARE_FLEET_PORT: String(FLEET.frontPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    roll.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    roll.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    roll.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`fleet:roll exited ${code}: ${output}`)),
    );
  });
}

/** One request of the loop: what failed about it, or undefined when it was answered as it should be. */
async function oneRequest(request: APIRequestContext, kind: number, searches: { count: number }) {
  try {
    if (kind % 4 === 3 && searches.count < MAX_SEARCHES) {
      searches.count += 1;
      const response = await request.post('/api/stays/priced-search', {
        headers: APP_HEADERS,
        data: {
          destination: {
            type: 'city',
            cityId: 'LIS',
            name: 'Lisbon',
            countryCode: 'PT',
            latitude: 38.72,
            longitude: -9.14,
          },
          checkIn: isoDateFromToday(40),
          checkOut: isoDateFromToday(42),
          rooms: [{ adults: 1 }],
        },
      });
      const body = await response.text();
      if (response.status() !== 200) return `stay search: ${response.status()} ${body.slice(0, 200)}`;
      // A search cut short ends with `truncated` or `error` instead of `done`.
      const last = [...body.matchAll(/^event: (.*)$/gm)].at(-1)?.[1];
      return last === 'done' ? undefined : `stay search ended with ${last ?? 'nothing'}`;
    }
    const path = kind % 2 === 0 ? '/api/session' : '/api/bookings';
    const response = await request.get(path, { headers: APP_HEADERS });
    if (response.status() !== 200)
      return `${path}: ${response.status()} ${(await response.text()).slice(0, 200)}`;
    return undefined;
  } catch (error) {
    return `${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

test('a rolling restart of both instances under load fails no request and loses or repeats no notification', async ({
  page,
  admin,
}) => {
  // A bound for a loaded machine, not a speed claim: each instance drains, starts again and becomes ready.
  test.setTimeout(180_000);
  await recordStream(page);
  await page.goto(`/auth/login?returnTo=${encodeURIComponent('/inbox')}`);
  await submitIdentitySignIn(page, traveler);
  await page.waitForURL((url) => url.origin === FLEET_ORIGIN && url.pathname === '/inbox');
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  const before = await raiseDelay(admin, traveler.id, 'Before');
  await expect.poll(async () => (await streamRecord(page)).ids[before.id]).toBe(1);

  const rolling = rollFleet();
  let rolled = false;
  void rolling.then(
    () => (rolled = true),
    () => (rolled = true),
  );

  // The load loop: the app's reads and searches through the front, with the browser's cookies.
  const failures: string[] = [];
  let sent = 0;
  const searches = { count: 0 };
  const loop = Promise.all(
    Array.from({ length: LOOP_WORKERS }, async (_, worker) => {
      for (let kind = worker; !rolled && sent < MAX_REQUESTS; kind += 1) {
        sent += 1;
        const failure = await oneRequest(page.request, kind, searches);
        if (failure !== undefined) failures.push(failure);
      }
    }),
  );
  // Notifications raised all along the roll, one at a time, two a second (a pace, not a wait for something).
  const raised: RaisedNotification[] = [before];
  while (!rolled) {
    raised.push(await raiseDelay(admin, traveler.id, 'During'));
    await page.waitForTimeout(500);
  }
  const output = await rolling;
  await loop;
  raised.push(await raiseDelay(admin, traveler.id, 'After'));

  // Every notification has reached the app's stream by the time the last one has: a repeat came before it.
  const last = raised.at(-1) as RaisedNotification;
  await expect.poll(async () => (await streamRecord(page)).ids[last.id] ?? 0).toBe(1);
  const record = await streamRecord(page);
  const counts = raised.map((notification) => record.ids[notification.id] ?? 0);
  const opened = record.streams.map((stream) => stream.openedAt);
  const gaps = record.streams
    .slice(1)
    .map((stream, index) => stream.openedAt - (record.streams[index]?.endedAt ?? opened[index] ?? 0));
  const figures = {
    requestsSent: sent,
    requestsFailed: failures.length,
    staySearches: searches.count,
    notificationsRaised: raised.length,
    receivedOnce: counts.filter((count) => count === 1).length,
    receivedTwiceOrMore: counts.filter((count) => count > 1).length,
    neverReceived: counts.filter((count) => count === 0).length,
    streamsOpened: record.streams.length,
    longestStreamGapMs: Math.round(Math.max(0, ...gaps)),
  };
  console.log(`rolling restart: ${JSON.stringify(figures)}`);
  console.log(output.trim());

  expect(output).toContain('bff-1: ready again');
  expect(output).toContain('bff-2: ready again');
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThan(LOOP_WORKERS);
  expect(figures.receivedOnce).toBe(raised.length);
  // The stream moved away from its instance when that one drained, to the other one.
  expect(record.streams.length).toBeGreaterThanOrEqual(2);
  expect(new Set(record.streams.map((stream) => stream.instance)).size).toBe(2);
  // The app never said it had lost its stream: it reconnected quietly and is live.
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
