import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeSseEvent } from '#shared/sse.ts';
import type { Notification } from '#shared/upstream/notifications.ts';
import { createSubscriberClient } from '../redis/redis-client.ts';
import { RedisServerProcess } from '../test-support/redis-server-process.ts';
import { notificationFixture } from '../test-support/scripted-travel-api.ts';
import {
  NotificationHub,
  type HubEvent,
  type HubSubscriber,
  type NotificationUpstream,
  type NotificationUpstreamCalls,
} from './notification-hub.ts';
import type { NotificationStore, NotificationStoreLimits } from './notification-store.ts';
import { MemoryNotificationStore } from './notification-store.memory.ts';
import { RedisNotificationStore } from './notification-store.redis.ts';
import { ConcurrencyGate } from './concurrency-gate.ts';

const PAGE_SIZE = 3;

/** The travel API as the hub sees it: a persisted list (newest first, paged) and live streams. */
class FakeUpstream implements NotificationUpstream {
  readonly persisted: Notification[] = [];
  readonly open = new Set<Readable>();
  opens = 0;
  listCalls = 0;
  failOpens = 0;
  /** Sessions whose opens the travel API never answers (they end when the hub gives up on them). */
  readonly unanswered = new Set<string>();

  readonly openedWith: string[] = [];

  forSession(sessionId: string): NotificationUpstreamCalls {
    return {
      openStream: (signal) => this.openStream(sessionId, signal),
      listPage: (before) => this.listPage(sessionId, before),
    };
  }

  openStream(sessionId: string, signal: AbortSignal): Promise<Readable> {
    this.opens += 1;
    this.openedWith.push(sessionId);
    if (this.unanswered.has(sessionId)) {
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
    if (this.failOpens > 0) {
      this.failOpens -= 1;
      return Promise.reject(new Error('503 startup in progress'));
    }
    const stream = new Readable({ read() {} });
    stream.once('close', () => this.open.delete(stream));
    this.open.add(stream);
    signal.addEventListener('abort', () => {
      if (this.open.delete(stream)) stream.destroy(signal.reason as Error);
    });
    return Promise.resolve(stream);
  }

  listPage(_sessionId: string, before: string | undefined) {
    this.listCalls += 1;
    const newestFirst = [...this.persisted].reverse();
    const start = before === undefined ? 0 : newestFirst.findIndex((item) => item.id === before) + 1;
    const items = newestFirst.slice(start, start + PAGE_SIZE);
    const nextCursor = start + PAGE_SIZE < newestFirst.length ? (items.at(-1)?.id ?? null) : null;
    return Promise.resolve({ items, nextCursor });
  }

  /** Persists a notification; `live: false` is the multi-worker gap (another worker had no listener). */
  emit(id: string, { live = true } = {}): void {
    const item = notificationFixture(id);
    this.persisted.push(item);
    if (live) this.#send(encodeSseEvent({ event: 'notification', data: item }));
  }

  done(): void {
    this.#send(encodeSseEvent({ event: 'done', data: {} }));
    this.drop();
  }

  drop(): void {
    for (const stream of this.open) stream.push(null);
    this.open.clear();
  }

  #send(text: string): void {
    for (const stream of this.open) stream.push(Buffer.from(text, 'utf8'));
  }
}

class FakeTab implements HubSubscriber {
  readonly events: HubEvent[] = [];
  ended: string | undefined;
  closed = false;
  readonly sessionId: string;
  readonly tabId: string | undefined;

  constructor(sessionId = 'session-1', tabId?: string) {
    this.sessionId = sessionId;
    this.tabId = tabId;
  }

  deliver(event: HubEvent): boolean {
    if (this.closed) return false;
    this.events.push(event);
    return true;
  }

  endSession(reason: string): void {
    this.ended = reason;
    this.closed = true;
  }

  ids(): string[] {
    return this.events.flatMap((event) => (event.type === 'notification' ? [event.notification.id] : []));
  }

  of<T extends HubEvent['type']>(type: T): Extract<HubEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<HubEvent, { type: T }> => event.type === type);
  }

  lastStatus(): string | undefined {
    return this.of('status').at(-1)?.state;
  }
}

const logger = pino({ level: 'silent' });
const hubs: NotificationHub[] = [];
const connections: Redis[] = [];
let redisServer: RedisServerProcess | undefined;
/** The Redis command connection of the running test, ready before the test starts (see beforeEach). */
let redisClient: Redis | undefined;

/** The two stores the one hub runs on: in-process, and a real redis-server on a free loopback port. */
const STORES: { name: string; store: () => (limits: NotificationStoreLimits) => NotificationStore }[] = [
  { name: 'in-process', store: () => (limits) => new MemoryNotificationStore(limits) },
  {
    name: 'Redis',
    store: () => {
      const client = redisClient;
      if (client === undefined) throw new Error('no Redis connection for this test');
      // One key space per test: every hub of the test shares it, as the instances of a fleet do.
      const prefix = `hub-suite-${randomUUID()}:`;
      return (limits) =>
        new RedisNotificationStore({
          ...limits,
          redis: {
            client,
            instanceId: randomUUID(),
            key: (...parts) => `${prefix}${parts.join(':')}`,
            subscriber: () => {
              const subscriber = createSubscriberClient(client, logger);
              connections.push(subscriber);
              return subscriber;
            },
          },
          logger,
          leaseMs: 900,
          sessionExists: () => Promise.resolve(true),
        });
    },
  },
];

afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
  for (const connection of connections.splice(0)) connection.disconnect();
});

afterAll(async () => {
  await redisServer?.stop();
});

/** `store` with some of its methods replaced; every other one is the store's own, bound to it. */
function withOverrides(store: NotificationStore, overrides: Partial<NotificationStore>): NotificationStore {
  return new Proxy(store, {
    get(target, key) {
      if (key in overrides) return overrides[key as keyof NotificationStore];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

describe.each(STORES)('NotificationHub on the $name store', ({ name, store }) => {
  beforeAll(async () => {
    if (name === 'Redis') redisServer ??= await RedisServerProcess.start();
  });

  // The command connection queues nothing while it connects (a BFF answers 503 meanwhile, and a hub
  // reports its stream as reconnecting): each test starts once it is ready, as a BFF serves once it is.
  beforeEach(async () => {
    redisClient = undefined;
    if (name !== 'Redis' || redisServer === undefined) return;
    const client = await redisServer.bffClient(logger);
    connections.push(client);
    redisClient = client;
  });

  function setup(
    options: {
      lingerMs?: number;
      upstreamIdleMs?: number;
      onShownLive?: (travelerId: string, id: string) => void;
      wrapStore?: (store: NotificationStore) => NotificationStore;
      reopenGate?: ConcurrencyGate;
    } = {},
  ) {
    const upstream = new FakeUpstream();
    const makeStore = store();
    const hub = new NotificationHub({
      store: (limits) => (options.wrapStore ?? ((inner) => inner))(makeStore(limits)),
      upstream,
      logger,
      lingerMs: options.lingerMs ?? 50,
      reconnectBaseMs: 5,
      reconnectCapMs: 20,
      dedupeCapacity: 100,
      resumeCapacity: 10,
      maxCatchUpPages: 5,
      ...(options.upstreamIdleMs ? { upstreamIdleMs: options.upstreamIdleMs } : {}),
      ...(options.onShownLive ? { onShownLive: options.onShownLive } : {}),
      ...(options.reopenGate ? { reopenGate: options.reopenGate } : {}),
    });
    hubs.push(hub);
    return { upstream, hub };
  }

  async function live(tab: FakeTab): Promise<void> {
    await vi.waitFor(() => expect(tab.lastStatus()).toBe('live'));
  }

  /** A visible tab of traveler t1 (session-1) whose stream is live. */
  async function liveTab(hub: NotificationHub): Promise<FakeTab> {
    const tab = new FakeTab();
    hub.subscribe({ travelerId: 't1', subscriber: tab, visible: true, lastEventId: undefined });
    await live(tab);
    return tab;
  }

  it('opens one upstream stream for five tabs and gives each tab each notification once, with one toast', async () => {
    const { upstream, hub } = setup();
    const tabs = Array.from({ length: 5 }, (_, index) => new FakeTab('session-1', `tab-${index}`));
    tabs.forEach((tab, index) =>
      hub.subscribe({ travelerId: 't1', subscriber: tab, visible: index === 2, lastEventId: undefined }),
    );
    await live(tabs[0]!);
    upstream.emit('n1');
    upstream.emit('n2');
    await vi.waitFor(() => tabs.forEach((tab) => expect(tab.ids()).toEqual(['n1', 'n2'])));
    expect(upstream.opens).toBe(1);
    const alerts = tabs.flatMap((tab, index) =>
      tab
        .of('notification')
        .filter((event) => event.alert)
        .map(() => index),
    );
    expect(alerts).toEqual([2, 2]);
  });

  it('opens another traveler’s stream while the travel API leaves one open unanswered, after one turn', async () => {
    const { upstream, hub } = setup({ reopenGate: new ConcurrencyGate(1, { turnMs: 50 }) });
    upstream.unanswered.add('session-unanswered');
    const waiting = new FakeTab('session-unanswered');
    hub.subscribe({ travelerId: 't-unanswered', subscriber: waiting, visible: true, lastEventId: undefined });
    await vi.waitFor(() => expect(upstream.openedWith).toEqual(['session-unanswered']));
    const tab = new FakeTab('session-2');
    hub.subscribe({ travelerId: 't2', subscriber: tab, visible: true, lastEventId: undefined });
    await live(tab);
    expect(upstream.openedWith).toEqual(['session-unanswered', 'session-2']);
    expect(waiting.lastStatus()).not.toBe('live');
  });

  it('catches up after a dropped connection: what was persisted meanwhile arrives once', async () => {
    const { upstream, hub } = setup();
    const tab = await liveTab(hub);
    upstream.emit('n1');
    await vi.waitFor(() => expect(tab.ids()).toEqual(['n1']));
    // Persisted while the connection was already broken: never sent on it.
    upstream.emit('n2', { live: false });
    upstream.emit('n3', { live: false });
    upstream.drop();
    await vi.waitFor(() => expect(tab.ids()).toEqual(['n1', 'n2', 'n3']));
    // "live" follows the catch-up's notifications: the hub records the state in the store, then publishes
    // it (one more round trip to Redis after the last notification arrived).
    await vi.waitFor(() => {
      const states = tab.of('status').map((event) => event.state);
      // A tab welcomed after the upstream went live starts at "live"; no state is ever said twice in a row.
      expect(states[0] === 'connecting' ? states.slice(1) : states).toEqual(['live', 'reconnecting', 'live']);
    });
    expect(upstream.opens).toBe(2);
  });

  it('reconnects and catches up after the upstream says done', async () => {
    const { upstream, hub } = setup();
    const tab = await liveTab(hub);
    upstream.done();
    upstream.emit('after-done', { live: false });
    await vi.waitFor(() => expect(tab.ids()).toEqual(['after-done']));
    expect(upstream.opens).toBe(2);
  });

  it('recovers a notification the live stream missed while connected (multi-worker gap) at the next reconnect', async () => {
    const { upstream, hub } = setup();
    const tab = await liveTab(hub);
    upstream.emit('seen-1');
    upstream.emit('missed', { live: false });
    upstream.emit('seen-2');
    await vi.waitFor(() => expect(tab.ids()).toEqual(['seen-1', 'seen-2']));
    upstream.drop();
    await vi.waitFor(() => expect(tab.ids()).toEqual(['seen-1', 'seen-2', 'missed']));
  });

  it('pages the catch-up back across several pages to the last known notification', async () => {
    const { upstream, hub } = setup();
    upstream.emit('old', { live: false });
    const tab = await liveTab(hub);
    upstream.drop();
    const missed = Array.from({ length: 8 }, (_, index) => `m${index}`);
    missed.forEach((id) => upstream.emit(id, { live: false }));
    await vi.waitFor(() => expect(tab.ids()).toEqual(missed));
    expect(tab.ids()).not.toContain('old');
  });

  it('asks for a resync when a catch-up cannot reach the last known notification within its page budget', async () => {
    const { upstream, hub } = setup();
    upstream.emit('old', { live: false });
    const tab = await liveTab(hub);
    upstream.drop();
    Array.from({ length: PAGE_SIZE * 5 + 1 }, (_, index) => upstream.emit(`m${index}`, { live: false }));
    await vi.waitFor(() => expect(tab.of('resync').map((event) => event.reason)).toContain('gap'));
  });

  it('resumes a tab from Last-Event-ID with what it missed, and resyncs an id it no longer holds', async () => {
    const { upstream, hub } = setup();
    const first = new FakeTab();
    hub.subscribe({ travelerId: 't1', subscriber: first, visible: true, lastEventId: undefined });
    await live(first);
    ['n1', 'n2', 'n3'].forEach((id) => upstream.emit(id));
    await vi.waitFor(() => expect(first.ids()).toHaveLength(3));

    const resumed = new FakeTab();
    hub.subscribe({ travelerId: 't1', subscriber: resumed, visible: true, lastEventId: 'n1' });
    // The replay is written before anything live reaches the resumed stream (from the log, on either store).
    await vi.waitFor(() => expect(resumed.ids()).toEqual(['n2', 'n3']));
    expect(resumed.of('notification').every((event) => event.replay && !event.alert)).toBe(true);
    expect(resumed.of('resync')).toEqual([]);

    const lost = new FakeTab();
    hub.subscribe({ travelerId: 't1', subscriber: lost, visible: true, lastEventId: 'long-gone' });
    await vi.waitFor(() =>
      expect(lost.of('resync')).toEqual([{ type: 'resync', reason: 'unknown-last-event-id' }]),
    );
  });

  it('keeps as many notifications for Last-Event-ID resume as its resume capacity, on either store', async () => {
    const { upstream, hub } = setup();
    const first = new FakeTab();
    hub.subscribe({ travelerId: 't1', subscriber: first, visible: true, lastEventId: undefined });
    await live(first);
    const ids = Array.from({ length: 12 }, (_, index) => `c${index}`);
    ids.forEach((id) => upstream.emit(id));
    await vi.waitFor(() => expect(first.ids()).toEqual(ids));

    // Ten are kept (c2..c11): c2 is still known, c1 no longer is.
    const kept = new FakeTab();
    hub.subscribe({ travelerId: 't1', subscriber: kept, visible: true, lastEventId: 'c2' });
    await vi.waitFor(() => expect(kept.ids()).toEqual(ids.slice(3)));
    const forgotten = new FakeTab();
    hub.subscribe({ travelerId: 't1', subscriber: forgotten, visible: true, lastEventId: 'c1' });
    await vi.waitFor(() =>
      expect(forgotten.of('resync')).toEqual([{ type: 'resync', reason: 'unknown-last-event-id' }]),
    );
    expect(forgotten.ids()).toEqual([]);
  });

  it('tells a fresh tab to refetch its inbox once the channel is live', async () => {
    const { hub } = setup();
    const tab = await liveTab(hub);
    expect(tab.of('resync')).toEqual([{ type: 'resync', reason: 'initial' }]);
  });

  it('says "live" and the initial resync once to a tab welcomed after the channel went live', async () => {
    let channelLive: () => void = () => undefined;
    const wentLive = new Promise<void>((resolve) => (channelLive = resolve));
    // The tab's welcome reads the shared state only after the channel's "live" reached this hub.
    const lateWelcome = (target: NotificationStore): NotificationStore =>
      withOverrides(target, {
        upstreamState: async (travelerId) => {
          await wentLive;
          return target.upstreamState(travelerId);
        },
        listen: (listener) =>
          target.listen({
            ...listener,
            channel: (travelerId, message) => {
              listener.channel(travelerId, message);
              if (message.type === 'status' && message.state === 'live') channelLive();
            },
          }),
      });
    const { hub } = setup({ wrapStore: lateWelcome });
    const tab = await liveTab(hub);
    await vi.waitFor(() => expect(tab.of('resync')).toHaveLength(1));
    expect(tab.of('status').map((event) => event.state)).toEqual(['live']);
    expect(tab.of('resync')).toEqual([{ type: 'resync', reason: 'initial' }]);
  });

  it('reopens and catches up when the store cannot take a live notification (Redis failing over): it and those after it arrive once', async () => {
    // The store refuses one live notification, as Redis does while its primary is down, then works again.
    let refuse = true;
    const failingOnce = (target: NotificationStore): NotificationStore =>
      withOverrides(target, {
        admit: (travelerId, input) => {
          if (refuse && input.mode === 'publish' && input.notification.id === 'refused') {
            refuse = false;
            return Promise.reject(new Error('store unavailable'));
          }
          return target.admit(travelerId, input);
        },
      });
    const { upstream, hub } = setup({ wrapStore: failingOnce });
    const tab = await liveTab(hub);
    upstream.emit('refused');
    upstream.emit('after');
    await vi.waitFor(() => expect(tab.ids()).toEqual(['refused', 'after']));
    expect(upstream.opens).toBe(2);
  });

  it('keeps reconnecting with back-off while the upstream refuses, then goes live', async () => {
    const { upstream, hub } = setup();
    upstream.failOpens = 3;
    await liveTab(hub);
    expect(upstream.opens).toBe(4);
  });

  it('closes the upstream stream only after the linger, and reuses it when a tab comes back in time', async () => {
    const { upstream, hub } = setup({ lingerMs: 60 });
    const tab = new FakeTab();
    const leave = hub.subscribe({ travelerId: 't1', subscriber: tab, visible: true, lastEventId: undefined });
    await live(tab);
    leave();
    const again = new FakeTab();
    const leaveAgain = hub.subscribe({
      travelerId: 't1',
      subscriber: again,
      visible: true,
      lastEventId: undefined,
    });
    expect(upstream.open.size).toBe(1);
    leaveAgain();
    await vi.waitFor(() => expect(upstream.open.size).toBe(0));
    expect(upstream.opens).toBe(1);
    expect(hub.stats().channels).toBe(0);
  });

  it('ends the streams of an ended session and lets go of the upstream when no session is left', async () => {
    const { upstream, hub } = setup();
    const tab = new FakeTab('session-1');
    const other = new FakeTab('session-2');
    hub.subscribe({ travelerId: 't1', subscriber: tab, visible: true, lastEventId: undefined });
    hub.subscribe({ travelerId: 't2', subscriber: other, visible: true, lastEventId: undefined });
    await live(tab);
    await live(other);
    hub.endSession('session-1', 'logout');
    expect(tab.ended).toBe('logout');
    expect(other.ended).toBeUndefined();
    expect(upstream.open.size).toBe(1);
  });

  it('takes a notification from the push channel as live, once, and records it as shown only on a visible tab', async () => {
    const shown: string[] = [];
    const { upstream, hub } = setup({ onShownLive: (_traveler, id) => shown.push(id) });
    const hidden = new FakeTab('session-1', 'hidden-tab');
    hub.subscribe({ travelerId: 't1', subscriber: hidden, visible: false, lastEventId: undefined });
    await live(hidden);
    await hub.ingest('t1', notificationFixture('p1'));
    expect(shown).toEqual([]);
    hub.setVisibility('session-1', 'hidden-tab', true);
    await hub.ingest('t1', notificationFixture('p2'));
    upstream.emit('p2');
    await vi.waitFor(() => expect(hub.stats().duplicatesDropped).toBe(1));
    expect(hidden.ids()).toEqual(['p1', 'p2']);
    expect(shown).toEqual(['p2']);
  });

  it('reopens an upstream stream that went silent (a dead connection without a close) and catches up', async () => {
    const { upstream, hub } = setup({ upstreamIdleMs: 60 });
    const tab = await liveTab(hub);
    upstream.emit('lost-on-the-dead-connection', { live: false });
    await vi.waitFor(() => expect(tab.ids()).toEqual(['lost-on-the-dead-connection']));
    expect(upstream.opens).toBeGreaterThanOrEqual(2);
  });

  it("reopens the upstream with another session's token when the session it used ends", async () => {
    const { upstream, hub } = setup();
    const laptop = new FakeTab('session-laptop');
    const phone = new FakeTab('session-phone');
    hub.subscribe({ travelerId: 't1', subscriber: laptop, visible: true, lastEventId: undefined });
    hub.subscribe({ travelerId: 't1', subscriber: phone, visible: true, lastEventId: undefined });
    await live(phone);
    hub.endSession('session-laptop', 'logout');
    expect(laptop.ended).toBe('logout');
    await vi.waitFor(() => expect(upstream.opens).toBe(2));
    await vi.waitFor(() => expect(upstream.open.size).toBe(1));
    upstream.emit('after-laptop-logout');
    await vi.waitFor(() => expect(phone.ids()).toEqual(['after-laptop-logout']));
    expect(upstream.openedWith.at(-1)).toBe('session-phone');
  });
});
