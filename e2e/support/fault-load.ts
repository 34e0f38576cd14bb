/**
 * What the fleet's fault journeys measure while they break something: a bounded load loop of a traveler's
 * requests through the front (session reads, bookings list reads, stay searches), each failure counted
 * with the phase of the journey it happened in, and in each of the traveler's tabs, every notification that
 * arrived live (read from the stream, or relayed by the tab that reads it) and how long the tab was not
 * live. The journeys print the figures (printFigures) and assert on them.
 */
import {
  expect,
  type APIRequestContext,
  type APIResponse,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { submitIdentitySignIn } from '../fixtures.ts';
import { isoDateFromToday } from './dates.ts';
import { inboxCard, type RaisedNotification } from './notifications.ts';
import { FLEET_ORIGIN } from './stack.ts';
import type { TestTraveler } from './test-travelers.ts';
import { expectPageAt, withAnyQuery } from './page-location.ts';

/** A stay search the travel API stand-in answers for any traveler. */
const STAY_SEARCH = {
  destination: {
    type: 'city',
    cityId: 'lisbon-pt',
    name: 'Lisbon',
    countryCode: 'PT',
    latitude: 38.72,
    longitude: -9.14,
  },
  checkIn: isoDateFromToday(40),
  checkOut: isoDateFromToday(42),
  rooms: [{ adults: 2 }],
};

const API_HEADERS = { 'x-requested-with': 'wayfare' };

export interface LoadFailure {
  what: string;
  phase: string;
  /** When the request started and ended, in milliseconds since the epoch. */
  startedAt: number;
  endedAt: number;
  outcome: string;
}

export interface LoadFigures {
  sent: number;
  failed: number;
  /**
   * Requests sent again because the server closed their kept-alive connection before answering (as a
   * browser does: RFC 9112, 9.3.1), by phase; each counts once in `sent`.
   */
  resent: Record<string, number>;
  byPhase: Record<string, { sent: number; failed: number }>;
  failures: LoadFailure[];
}

type Operation = { what: string; run: (request: APIRequestContext) => Promise<string | undefined> };

/** The stay search of OPERATIONS, which the BFF allows RATE_LIMIT_SEARCH_PER_MINUTE (30) times a minute. */
const SEARCH = 'POST /api/stays/search';

/** A refused request's status and, when its body is the error envelope, its code (`503 SERVICE_UNAVAILABLE`). */
async function refusal(response: APIResponse): Promise<string> {
  const code = await response
    .json()
    .then((body: unknown) => (body as { error?: { code?: unknown } } | null)?.error?.code)
    .catch(() => undefined);
  return typeof code === 'string' ? `${response.status()} ${code}` : `${response.status()}`;
}

/** Each operation answers undefined when the traveler got what they asked for, or what went wrong. */
const OPERATIONS: Operation[] = [
  {
    what: 'GET /api/session',
    run: async (request) => {
      const response = await request.get('/api/session', { headers: API_HEADERS });
      if (!response.ok()) return refusal(response);
      const body = (await response.json()) as { authenticated?: boolean };
      return body.authenticated === true ? undefined : 'signed out';
    },
  },
  {
    what: 'GET /api/bookings',
    run: async (request) => {
      const response = await request.get('/api/bookings', { headers: API_HEADERS });
      return response.ok() ? undefined : refusal(response);
    },
  },
  {
    what: SEARCH,
    run: async (request) => {
      const response = await request.post('/api/stays/search', {
        headers: { ...API_HEADERS, accept: 'text/event-stream' },
        data: STAY_SEARCH,
      });
      if (!response.ok()) return refusal(response);
      const body = await response.text();
      const last = [...body.matchAll(/^event: (\S+)$/gm)].at(-1)?.[1];
      return last === 'done' ? undefined : `stream ended with ${last ?? 'nothing'}`;
    },
  },
];

/**
 * A load loop through the front as the traveler of `request` (a browser context's request context, with
 * its cookies): `lanes` loops side by side, each running the operations in turn, until stop() or
 * `maxRequests` in all, each lane pausing `backOffMs` after a request that failed. A search whose turn
 * comes when `searchesPerMinute` were sent in the last minute gives its turn to the next operation, so
 * that the traveler stays inside the BFF's search quota however long the loop runs. Every request is
 * counted in the phase the journey was in when it started.
 */
export class LoadLoop {
  readonly #request: APIRequestContext;
  readonly #maxRequests: number;
  readonly #figures: LoadFigures = { sent: 0, failed: 0, resent: {}, byPhase: {}, failures: [] };
  readonly #lanes: Promise<void>[] = [];
  readonly #waiters: { count: number; resolve: () => void }[] = [];
  readonly #searchesPerMinute: number;
  /** When each search was sent, for the quota. */
  readonly #searchTimes: number[] = [];
  /** How long a lane waits after a failed request before its next one, as a traveler's app would. */
  readonly #backOffMs: number;
  #phase = 'before';
  #stopped = false;

  constructor(
    request: APIRequestContext,
    { lanes = 2, maxRequests = 3000, searchesPerMinute = 20, backOffMs = 250 } = {},
  ) {
    this.#request = request;
    this.#maxRequests = maxRequests;
    this.#searchesPerMinute = searchesPerMinute;
    this.#backOffMs = backOffMs;
    for (let lane = 0; lane < lanes; lane += 1) this.#lanes.push(this.#run(lane));
  }

  /** Requests sent so far count in the phase before this; those sent from now on in `name`. */
  phase(name: string): void {
    this.#phase = name;
  }

  /** Resolves once `count` more requests have been answered (or the loop has stopped). */
  async answered(count: number): Promise<void> {
    const target = this.#answered + count;
    await new Promise<void>((resolve) => {
      if (this.#stopped) resolve();
      else this.#waiters.push({ count: target, resolve });
    });
  }

  /** Stops the loop once the requests in flight are answered, with its figures. */
  async stop(): Promise<LoadFigures> {
    this.#stopped = true;
    await Promise.all(this.#lanes);
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
    return this.#figures;
  }

  #answered = 0;

  async #run(lane: number): Promise<void> {
    for (let turn = lane; !this.#stopped && this.#figures.sent < this.#maxRequests; turn += 1) {
      let operation = OPERATIONS[turn % OPERATIONS.length] as Operation;
      if (operation.what === SEARCH) {
        const now = Date.now();
        while ((this.#searchTimes[0] ?? now) <= now - 60_000) this.#searchTimes.shift();
        if (this.#searchTimes.length >= this.#searchesPerMinute) {
          operation = OPERATIONS[(turn + 1) % OPERATIONS.length] as Operation;
        } else {
          this.#searchTimes.push(now);
        }
      }
      const phase = this.#phase;
      const figures = (this.#figures.byPhase[phase] ??= { sent: 0, failed: 0 });
      this.#figures.sent += 1;
      figures.sent += 1;
      const startedAt = Date.now();
      let outcome: string | undefined;
      for (let attempt = 1; ; attempt += 1) {
        try {
          outcome = await operation.run(this.#request);
        } catch (error) {
          outcome = error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
          // The client rejects with a reset only when it came before any of the answer: a server may close
          // an idle kept-alive connection as the next request goes out on it (nginx's old workers do on a
          // reload), and a browser sends that request again on a new connection. So does this loop, once.
          if (attempt === 1 && /ECONNRESET/.test(outcome)) {
            this.#figures.resent[phase] = (this.#figures.resent[phase] ?? 0) + 1;
            continue;
          }
        }
        break;
      }
      if (outcome !== undefined) {
        this.#figures.failed += 1;
        figures.failed += 1;
        this.#figures.failures.push({ what: operation.what, phase, startedAt, endedAt: Date.now(), outcome });
        await new Promise((resolve) => setTimeout(resolve, this.#backOffMs));
      }
      this.#answered += 1;
      for (const waiter of [...this.#waiters]) {
        if (this.#answered < waiter.count) continue;
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    this.#stopped = true;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }
}

interface LiveRecord {
  /** Each notification that reached the app live, by id, in the order it arrived. */
  arrivals: string[];
  /** When the tab's live indicator came and went, in milliseconds since the epoch. */
  changes: { at: number; live: boolean }[];
  /** Each notification stream the tab opened: the instance that served it, when it opened and ended. */
  streams: NotificationStream[];
}

export interface NotificationStream {
  /** The instance the front passed it to (`X-Wayfare-Instance`, the local fleet's front only). */
  instance: string;
  openedAt: number;
  endedAt?: number;
}

/**
 * Records, in every page of `context` loaded from now on, each notification the app gets live: the ones
 * the tab reads from its own stream (a copy of the response the app reads) and the ones another tab
 * relays to it over the notification channel (the events the app's own channel hears); and each time its
 * "Live" status appears or goes.
 */
export async function recordLiveNotifications(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const record: LiveRecord = { arrivals: [], changes: [], streams: [] };
    (window as unknown as { __wayfareLive: LiveRecord }).__wayfareLive = record;
    const arrived = (data: unknown) => {
      try {
        const id = (JSON.parse(String(data)) as { notification?: { id?: unknown } }).notification?.id;
        if (typeof id === 'string') record.arrivals.push(id);
      } catch {
        // Not a notification the app could read either.
      }
    };

    const originalFetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await originalFetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (new URL(url, location.href).pathname !== '/api/notifications/stream' || !response.body) {
        return response;
      }
      const stream: NotificationStream = {
        instance: (response.headers.get('x-wayfare-instance') ?? '').split(/,\s*/).at(-1) ?? '',
        openedAt: Date.now(),
      };
      record.streams.push(stream);
      const reader = (response.clone().body as ReadableStream<BufferSource>)
        .pipeThrough(new TextDecoderStream())
        .getReader();
      void (async () => {
        let buffer = '';
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value.replaceAll('\r\n', '\n');
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const lines = buffer.slice(0, end).split('\n');
              buffer = buffer.slice(end + 2);
              const event = lines
                .find((line) => line.startsWith('event:'))
                ?.slice(6)
                .trim();
              const data = lines
                .filter((line) => line.startsWith('data:'))
                .map((line) => line.slice(5).replace(/^ /, ''))
                .join('\n');
              if (event === 'notification') arrived(data);
            }
          }
        } catch {
          // The app ended the stream, or the connection went: the app reads no more either.
        }
        stream.endedAt = Date.now();
      })();
      return response;
    };

    const OriginalChannel = window.BroadcastChannel;
    window.BroadcastChannel = class extends OriginalChannel {
      constructor(name: string) {
        super(name);
        if (name !== 'wayfare:notifications') return;
        this.addEventListener('message', (event: MessageEvent<unknown>) => {
          const message = event.data as { kind?: unknown; event?: unknown; data?: unknown } | null;
          if (message?.kind === 'stream-event' && message.event === 'notification') arrived(message.data);
        });
      }
    };

    let live = false;
    new MutationObserver(() => {
      const now = [...document.querySelectorAll('[role="status"]')].some(
        (element) => element.textContent?.trim() === 'Live',
      );
      if (now === live) return;
      live = now;
      record.changes.push({ at: Date.now(), live });
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** `count` tabs of one browser context, signed in through the front as the traveler, each with the inbox open and live. */
export async function liveInboxTabs(
  context: BrowserContext,
  traveler: TestTraveler,
  count = 3,
): Promise<Page[]> {
  const first = await context.newPage();
  await first.goto(`/auth/login?returnTo=${encodeURIComponent('/inbox')}`);
  await submitIdentitySignIn(first, traveler);
  await expectPageAt(first, FLEET_ORIGIN, withAnyQuery('/inbox'));
  const tabs = [first];
  while (tabs.length < count) {
    const tab = await context.newPage();
    await tab.goto('/inbox');
    tabs.push(tab);
  }
  for (const tab of tabs) await expect(tab.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  return tabs;
}

export interface NotificationFigures {
  raised: number;
  /** Tab and notification pairs: how many arrived live once, more than once, never. */
  live: { once: number; twice: number; never: number };
  /** Tab and notification pairs: how many cards the tab's inbox shows for it, once, more, none. */
  inbox: { once: number; twice: number; never: number };
  /** The longest a tab was not live after it first was, in milliseconds. */
  longestGapMs: number;
}

async function liveRecord(page: Page): Promise<LiveRecord> {
  return page.evaluate(
    () =>
      (window as unknown as { __wayfareLive?: LiveRecord }).__wayfareLive ?? {
        arrivals: [],
        changes: [],
        streams: [],
      },
  );
}

function longestGap(changes: LiveRecord['changes'], until: number): number {
  let longest = 0;
  let wentAt: number | undefined;
  let seenLive = false;
  for (const change of changes) {
    if (change.live) {
      if (wentAt !== undefined) longest = Math.max(longest, change.at - wentAt);
      wentAt = undefined;
      seenLive = true;
    } else if (seenLive) {
      wentAt = change.at;
    }
  }
  return wentAt === undefined ? longest : Math.max(longest, until - wentAt);
}

/** How the notifications raised reached each tab (recordLiveNotifications must be on for their context). */
export async function notificationFigures(
  tabs: Page[],
  raised: RaisedNotification[],
): Promise<NotificationFigures> {
  const figures: NotificationFigures = {
    raised: raised.length,
    live: { once: 0, twice: 0, never: 0 },
    inbox: { once: 0, twice: 0, never: 0 },
    longestGapMs: 0,
  };
  const tally = (counts: { once: number; twice: number; never: number }, times: number) => {
    if (times === 0) counts.never += 1;
    else if (times === 1) counts.once += 1;
    else counts.twice += 1;
  };
  for (const tab of tabs) {
    const record = await liveRecord(tab);
    figures.longestGapMs = Math.max(figures.longestGapMs, longestGap(record.changes, Date.now()));
    for (const notification of raised) {
      tally(figures.live, record.arrivals.filter((id) => id === notification.id).length);
      tally(figures.inbox, await inboxCard(tab, notification.title).count());
    }
  }
  return figures;
}

/** Whether every tab has had every notification live at least once (to wait for, before counting). */
export async function allArrivedLive(tabs: Page[], raised: RaisedNotification[]): Promise<boolean> {
  for (const tab of tabs) {
    const { arrivals } = await liveRecord(tab);
    if (raised.some((notification) => !arrivals.includes(notification.id))) return false;
  }
  return true;
}

/**
 * The end of a fault journey: waits (bounded) until every tab has had every notification live, stops the
 * load loop, and counts. `arrived` is false when the wait ran out; the journey prints the figures first
 * and asserts after, so a failed run still shows what it measured.
 */
export async function finishFaultRun(
  load: LoadLoop,
  tabs: Page[],
  raised: RaisedNotification[],
): Promise<{ arrived: boolean; figures: LoadFigures; notifications: NotificationFigures }> {
  let arrived = true;
  try {
    await expect.poll(() => allArrivedLive(tabs, raised), { timeout: 30_000 }).toBe(true);
  } catch {
    arrived = false;
  }
  const figures = await load.stop();
  return { arrived, figures, notifications: await notificationFigures(tabs, raised) };
}

/** The notification streams the tabs opened (recordLiveNotifications must be on), in the order they opened. */
export async function notificationStreams(tabs: Page[]): Promise<NotificationStream[]> {
  const streams: NotificationStream[] = [];
  for (const tab of tabs) streams.push(...(await liveRecord(tab)).streams);
  return streams.sort((one, other) => one.openedAt - other.openedAt);
}

/** Prints a fault journey's figures, one line each, for the run's log. */
export function printFigures(
  journey: string,
  load: LoadFigures,
  notifications: NotificationFigures,
  extra: Record<string, string> = {},
): void {
  const phases = Object.entries(load.byPhase)
    .map(([phase, { sent, failed }]) => `${phase} ${failed}/${sent}`)
    .join(', ');
  const lines = [
    `requests sent ${load.sent}, failed ${load.failed} (failed/sent by phase: ${phases})`,
    ...load.failures.map(
      (failure) =>
        `  failed in ${failure.phase}: ${failure.what} (${failure.outcome}) at ${failure.startedAt}`,
    ),
    ...(Object.keys(load.resent).length === 0
      ? []
      : [
          `requests sent again after the server closed their idle connection: ${Object.entries(load.resent)
            .map(([phase, count]) => `${phase} ${count}`)
            .join(', ')}`,
        ]),
    ...Object.entries(extra).map(([name, value]) => `${name}: ${value}`),
    `longest a tab was not live: ${notifications.longestGapMs} ms`,
    `notifications raised ${notifications.raised}; per tab, live once ${notifications.live.once}, twice ${notifications.live.twice}, never ${notifications.live.never}; in the inbox once ${notifications.inbox.once}, twice ${notifications.inbox.twice}, never ${notifications.inbox.never}`,
  ];
  console.log(lines.map((line) => `[${journey}] ${line}`).join('\n'));
}
