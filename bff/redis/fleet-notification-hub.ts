import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { Redis } from 'ioredis';
import type {
  NotificationResyncReason,
  NotificationStreamState,
} from '#shared/api/notification-stream-events.ts';
import { NotificationSchema, type Notification } from '#shared/upstream/notifications.ts';
import { AppError } from '../errors.ts';
import { BoundedIdSet } from '../notifications/bounded-id-set.ts';
import { readSseBody } from '../streams/read-sse-body.ts';
import type {
  HubEvent,
  HubSubscriber,
  NotificationHubOptions,
  NotificationHubStats,
  SubscribeInput,
} from '../notifications/notification-hub.ts';
import type { DeliveryLedger } from '../push/delivery-ledger.ts';
import { reconnectDelay } from '#shared/reconnect-delay.ts';
import { waitForRedis } from './redis-client.ts';
import type { SharedRedis } from './redis-plugin.ts';
import { sessionKey } from './redis-session-store.ts';

export interface FleetNotificationHubOptions extends NotificationHubOptions {
  redis: SharedRedis;
  /** The shared ledger; recorded by whichever instance showed a notification to a visible app. */
  ledger: DeliveryLedger;
  /** How long a traveler's upstream stream stays with an instance that stopped renewing its lease. */
  leaseMs: number;
  /** How long a push waits for the instances holding the traveler's streams to report (ledger). */
  ackTimeoutMs?: number;
}

/** What travels on a traveler's channel (Redis pub/sub), from the lease holder to every instance. */
type ChannelMessage =
  | { type: 'notification'; entry: string; ack: string; notification: Notification }
  | { type: 'status'; state: NotificationStreamState }
  | { type: 'resync'; reason: NotificationResyncReason };

/** What travels on the fleet's control channel: events that concern streams on any instance. */
type ControlMessage =
  | { type: 'session-ended'; origin: string; sessionId: string; reason: string }
  | { type: 'visibility'; origin: string; sessionId: string; tabId: string; visible: boolean };

/**
 * Takes or keeps the lease: free -> ours; already ours -> extended. Returns 1 when we hold it.
 * KEYS: lease. ARGV: instance id, lease ms.
 */
const LEASE_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Writes KEYS[2] = ARGV[2] (PX ARGV[3]) only while the lease KEYS[1] is ARGV[1]'s. */
const SET_IF_HOLDER_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
`;

/**
 * A notification enters the fleet once: remembered among the traveler's seen ids (dedupe across
 * instances and takeovers), appended to the traveler's Redis stream (replay for Last-Event-ID and for
 * an instance whose subscription dropped), then published to every instance with streams. Returns the
 * number of instances it reached, or -1 for a duplicate. A baseline only records.
 * KEYS: seen, log. ARGV: id, json, mode, channel, ack key, seen cap, log cap, ttl ms, now.
 */
const INGEST_SCRIPT = `
if redis.call('ZADD', KEYS[1], 'NX', ARGV[9], ARGV[1]) == 0 then return -1 end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[6]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[8])
local entry = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[7], '*', 'id', ARGV[1], 'n', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[8])
if ARGV[3] == 'baseline' then return 0 end
local message = '{"type":"notification","entry":' .. cjson.encode(entry) .. ',"ack":' .. cjson.encode(ARGV[5]) .. ',"notification":' .. ARGV[2] .. '}'
return redis.call('PUBLISH', ARGV[4], message)
`;

/** How long a traveler's fleet state (seen ids, replay log, checkpoint) outlives their last activity. */
const STATE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const ACK_POLL_MS = 15;

/** One instance's most recent visible tab of a traveler, as the fleet sees it (epoch ms). */
interface SharedVisibility {
  since: number;
  /** Ignored after this instant: the instance stopped renewing it (it died). */
  until: number;
}

interface SubscriberState {
  visible: boolean;
  visibleSince: number;
  awaitingInitialResync: boolean;
  /** False until the initial status and any Last-Event-ID replay were written; events wait meanwhile. */
  ready: boolean;
  queued: HubEvent[];
  replayed: Set<string>;
}

type Counters = Omit<NotificationHubStats, 'channels' | 'subscribers'>;

/**
 * The notification hub of a fleet of BFF instances sharing Redis. Per traveler, exactly one instance
 * (the holder of a lease in Redis, renewed while it lives) keeps the upstream notification stream,
 * catches up through the list from a checkpoint kept in Redis, and publishes every notification once
 * to the traveler's Redis channel; every instance with browser streams of that traveler subscribes to
 * the channel and writes to its own streams. When the holder dies its lease lapses, and another
 * instance with streams for the traveler takes over within a lease and catches up from the shared
 * checkpoint, the seen ids in Redis keeping it from repeating anything. Same interface as the
 * single-process NotificationHub, so the routes do not know which one serves them.
 */
export class FleetNotificationHub {
  readonly #options: FleetNotificationHubOptions;
  readonly #redis: SharedRedis;
  readonly #travelers = new Map<string, LocalTraveler>();
  readonly #counters: Counters = {
    upstreamConnects: 0,
    upstreamDrops: 0,
    caughtUp: 0,
    duplicatesDropped: 0,
    resyncs: 0,
  };
  readonly #subscriber: Redis;
  readonly #controlChannel: string;
  #closed = false;

  constructor(options: FleetNotificationHubOptions) {
    this.#options = options;
    this.#redis = options.redis;
    this.#controlChannel = this.#redis.key('hub-control');
    this.#subscriber = this.#redis.subscriber();
    this.#subscriber.on('message', (channel: string, text: string) => this.#onMessage(channel, text));
    // After a lost subscription, the Redis stream of each traveler replays what was published meanwhile.
    let connectedBefore = this.#subscriber.status === 'ready';
    this.#subscriber.on('ready', () => {
      if (connectedBefore) {
        for (const traveler of this.#travelers.values()) void traveler.replayMissed();
      }
      connectedBefore = true;
    });
    this.#subscriber.subscribe(this.#controlChannel).catch((error: unknown) => {
      this.#options.logger.error({ err: error }, 'hub control channel subscription failed');
    });
  }

  subscribe(input: SubscribeInput): () => void {
    let traveler = this.#travelers.get(input.travelerId);
    if (traveler === undefined) {
      traveler = new LocalTraveler(input.travelerId, this.#options, this.#counters, this.#subscriber, {
        onStopped: () => this.#travelers.delete(input.travelerId),
        endSession: (sessionId, reason) => this.endSession(sessionId, reason),
      });
      this.#travelers.set(input.travelerId, traveler);
      traveler.start();
    }
    return traveler.add(input.subscriber, input.visible, input.lastEventId);
  }

  /** Applies here and on every other instance: the visibility report may reach another instance than the stream. */
  setVisibility(sessionId: string, tabId: string, visible: boolean): boolean {
    this.#publishControl({ type: 'visibility', origin: this.#redis.instanceId, sessionId, tabId, visible });
    return this.#applyVisibility(sessionId, tabId, visible);
  }

  /**
   * A notification that reached this instance another way (the push channel): published to the fleet
   * unless it is known already. Resolves once every instance with streams of the traveler has written
   * it to them and recorded it in the ledger (or after the acknowledgement timeout).
   */
  async ingest(travelerId: string, notification: Notification): Promise<void> {
    if (!EVENT_ID.test(notification.id)) {
      this.#options.logger.warn({ travelerId }, 'notification with an unusable id skipped');
      return;
    }
    const ackKey = this.#redis.key('hub-ack', travelerId, randomUUID());
    try {
      const reached = await publishNotification(this.#redis, travelerId, notification, 'publish', ackKey);
      if (reached === -1) this.#counters.duplicatesDropped += 1;
      if (reached <= 0) return;
      const deadline = Date.now() + (this.#options.ackTimeoutMs ?? 1000);
      while (Date.now() < deadline) {
        const acks = Number((await this.#redis.client.get(ackKey)) ?? 0);
        if (acks >= reached) return;
        await sleep(ACK_POLL_MS);
      }
    } catch (error) {
      this.#options.logger.warn(
        { travelerId, notificationId: notification.id, err: error },
        'notification not shared with the fleet',
      );
    }
  }

  /** Ends the session's streams here and on every other instance. */
  endSession(sessionId: string, reason: string): void {
    this.#publishControl({ type: 'session-ended', origin: this.#redis.instanceId, sessionId, reason });
    this.#endSessionLocally(sessionId, reason);
  }

  /** Stops the upstream streams this instance holds and hands their leases back at once. */
  close(): void {
    this.#closed = true;
    for (const traveler of [...this.#travelers.values()]) traveler.stop();
    this.#travelers.clear();
    this.#subscriber.unsubscribe().catch(() => undefined);
  }

  stats(): NotificationHubStats {
    let subscribers = 0;
    for (const traveler of this.#travelers.values()) subscribers += traveler.subscriberCount;
    return { channels: this.#travelers.size, subscribers, ...this.#counters };
  }

  #onMessage(channel: string, text: string): void {
    if (this.#closed) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (channel === this.#controlChannel) {
      const control = message as ControlMessage;
      if (control.origin === this.#redis.instanceId) return;
      if (control.type === 'session-ended') this.#endSessionLocally(control.sessionId, control.reason);
      if (control.type === 'visibility')
        this.#applyVisibility(control.sessionId, control.tabId, control.visible);
      return;
    }
    for (const traveler of this.#travelers.values()) {
      if (traveler.channel === channel) traveler.receive(message as ChannelMessage);
    }
  }

  #applyVisibility(sessionId: string, tabId: string, visible: boolean): boolean {
    let found = false;
    for (const traveler of this.#travelers.values()) {
      if (traveler.setVisibility(sessionId, tabId, visible)) found = true;
    }
    return found;
  }

  #endSessionLocally(sessionId: string, reason: string): void {
    for (const traveler of [...this.#travelers.values()]) traveler.endSession(sessionId, reason);
  }

  #publishControl(message: ControlMessage): void {
    this.#redis.client.publish(this.#controlChannel, JSON.stringify(message)).catch((error: unknown) => {
      this.#options.logger.warn({ err: error, type: message.type }, 'hub control message not sent');
    });
  }
}

/** Seen ids and replay entries kept per traveler in Redis. */
const SEEN_CAPACITY = 2000;

function publishNotification(
  redis: SharedRedis,
  travelerId: string,
  notification: Notification,
  mode: 'publish' | 'baseline',
  ackKey: string,
): Promise<number> {
  return redis.client.eval(
    INGEST_SCRIPT,
    2,
    redis.key('hub-seen', travelerId),
    redis.key('hub-log', travelerId),
    notification.id,
    JSON.stringify(notification),
    mode,
    redis.key('hub', travelerId),
    ackKey,
    SEEN_CAPACITY,
    200,
    STATE_TTL_MS,
    Date.now(),
  ) as Promise<number>;
}

/** One traveler as this instance sees them: its browser streams, and the upstream if it holds the lease. */
class LocalTraveler {
  readonly travelerId: string;
  readonly channel: string;
  readonly #options: FleetNotificationHubOptions;
  readonly #redis: SharedRedis;
  readonly #counters: Counters;
  readonly #subscriberConnection: Redis;
  readonly #onStopped: () => void;
  readonly #endSessionEverywhere: (sessionId: string, reason: string) => void;
  readonly #subscribers = new Map<HubSubscriber, SubscriberState>();
  readonly #delivered: BoundedIdSet;
  #state: NotificationStreamState = 'connecting';
  /** The newest Redis stream entry written to the browsers here: where a replay resumes. */
  #lastEntry: string | undefined;
  #leaseTimer: NodeJS.Timeout | undefined;
  #lingerTimer: NodeJS.Timeout | undefined;
  #upstream: UpstreamHolder | undefined;
  #stopped = false;
  /** Settles once the channel subscription is in place (a resume read before it could miss a publication). */
  #subscribed: Promise<void> = Promise.resolve();

  constructor(
    travelerId: string,
    options: FleetNotificationHubOptions,
    counters: Counters,
    subscriberConnection: Redis,
    hooks: { onStopped: () => void; endSession: (sessionId: string, reason: string) => void },
  ) {
    this.travelerId = travelerId;
    this.#options = options;
    this.#redis = options.redis;
    this.#counters = counters;
    this.#subscriberConnection = subscriberConnection;
    this.#onStopped = hooks.onStopped;
    this.#endSessionEverywhere = hooks.endSession;
    this.channel = this.#redis.key('hub', travelerId);
    this.#delivered = new BoundedIdSet(options.dedupeCapacity);
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  start(): void {
    this.#subscribed = this.#subscriberConnection.subscribe(this.channel).then(() => undefined);
    this.#subscribed.catch((error: unknown) => {
      this.#options.logger.error(
        { err: error, travelerId: this.travelerId },
        'hub channel subscription failed',
      );
    });
    void this.#leaseTick();
  }

  add(subscriber: HubSubscriber, visible: boolean, lastEventId: string | undefined): () => void {
    clearTimeout(this.#lingerTimer);
    this.#lingerTimer = undefined;
    const state: SubscriberState = {
      visible,
      visibleSince: Date.now(),
      awaitingInitialResync: lastEventId === undefined,
      ready: false,
      queued: [],
      replayed: new Set(),
    };
    this.#subscribers.set(subscriber, state);
    if (visible) this.#shareVisibility();
    void this.#welcome(subscriber, state, lastEventId);
    return () => this.#remove(subscriber);
  }

  setVisibility(sessionId: string, tabId: string, visible: boolean): boolean {
    let found = false;
    for (const [subscriber, state] of this.#subscribers) {
      if (subscriber.sessionId !== sessionId || subscriber.tabId !== tabId) continue;
      found = true;
      if (visible && !state.visible) state.visibleSince = Date.now();
      state.visible = visible;
    }
    if (found) this.#shareVisibility();
    return found;
  }

  endSession(sessionId: string, reason: string): void {
    let ended = false;
    for (const subscriber of [...this.#subscribers.keys()]) {
      if (subscriber.sessionId !== sessionId) continue;
      this.#subscribers.delete(subscriber);
      subscriber.endSession(reason);
      ended = true;
    }
    if (ended) this.#shareVisibility();
    if (this.#upstream?.credential === sessionId) {
      const next = this.#subscribers.keys().next().value?.sessionId;
      // The upstream stream was opened with the ended session's token: it must not outlive it.
      if (next === undefined) this.stop();
      else this.#upstream.replaceCredential(next);
    } else if (ended && this.#subscribers.size === 0) {
      this.#startLinger();
    }
  }

  /** A message of the traveler's channel. */
  receive(message: ChannelMessage): void {
    if (message.type === 'notification') {
      void this.#deliverNotification(message.notification, message.entry, message.ack);
      return;
    }
    if (message.type === 'status') {
      this.#state = message.state;
      for (const [subscriber, state] of this.#subscribers) {
        this.#send(subscriber, state, { type: 'status', state: message.state });
        if (message.state === 'live' && state.awaitingInitialResync) {
          state.awaitingInitialResync = false;
          this.#resync(subscriber, state, 'initial');
        }
      }
      return;
    }
    // A stream still waiting for its initial resync gets that one when the upstream is live.
    for (const [subscriber, state] of this.#subscribers) {
      if (!state.awaitingInitialResync) this.#resync(subscriber, state, message.reason);
    }
  }

  /**
   * Sessions can vanish without an end event reaching this instance (a control message lost while the
   * subscription was down, or a Redis that came back empty): their streams end here.
   */
  async #endVanishedSessions(): Promise<void> {
    const sessionIds = new Set([...this.#subscribers.keys()].map((subscriber) => subscriber.sessionId));
    for (const sessionId of sessionIds) {
      if ((await this.#redis.client.exists(sessionKey(this.#redis, sessionId))) === 0) {
        this.#endSessionEverywhere(sessionId, 'expired');
      }
    }
  }

  /**
   * After the pub/sub connection was lost: writes what the traveler's Redis stream holds after the last
   * entry written here. When that entry is no longer in the stream (trimmed, or Redis lost its data),
   * continuity cannot be shown and the browsers are asked to refetch their inbox.
   */
  async replayMissed(): Promise<void> {
    const log = this.#redis.key('hub-log', this.travelerId);
    try {
      // The command connection reconnects on its own schedule: it has to be back to read the stream.
      await waitForRedis(this.#redis.client, this.#options.leaseMs * 2);
      const last = this.#lastEntry;
      const continuous =
        last !== undefined && (await this.#redis.client.xrange(log, last, last)).length === 1;
      if (continuous) {
        for (const [entry, fields] of await this.#redis.client.xrange(log, `(${last}`, '+')) {
          const notification = parseEntry(fields);
          if (notification) await this.#deliverNotification(notification, entry, '');
        }
      } else {
        this.receive({ type: 'resync', reason: 'gap' });
      }
      const fleetState = await this.#redis.client.get(this.#redis.key('hub-state', this.travelerId));
      if (fleetState !== null && fleetState !== this.#state) {
        this.receive({ type: 'status', state: fleetState as NotificationStreamState });
      }
      await this.#endVanishedSessions();
    } catch (error) {
      this.#options.logger.warn(
        { err: error, travelerId: this.travelerId },
        'replay after reconnection failed',
      );
      this.receive({ type: 'resync', reason: 'gap' });
    }
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#lingerTimer);
    clearTimeout(this.#leaseTimer);
    this.#letGo();
    this.#redis.client.hdel(this.#visibilityKey, this.#redis.instanceId).catch(() => undefined);
    this.#subscriberConnection.unsubscribe(this.channel).catch(() => undefined);
    this.#onStopped();
  }

  async #welcome(subscriber: HubSubscriber, state: SubscriberState, lastEventId: string | undefined) {
    try {
      await this.#subscribed;
      const fleetState = await this.#redis.client.get(this.#redis.key('hub-state', this.travelerId));
      if (fleetState !== null) this.#state = fleetState as NotificationStreamState;
      subscriber.deliver({ type: 'status', state: this.#state });
      if (lastEventId === undefined) {
        if (this.#state === 'live') {
          state.awaitingInitialResync = false;
          this.#resync(subscriber, state, 'initial', true);
        }
      } else {
        const entries = await this.#redis.client.xrange(
          this.#redis.key('hub-log', this.travelerId),
          '-',
          '+',
        );
        const notifications = entries.map(([, fields]) => parseEntry(fields));
        const index = notifications.findIndex((notification) => notification?.id === lastEventId);
        if (index === -1) this.#resync(subscriber, state, 'unknown-last-event-id', true);
        for (const notification of index === -1 ? [] : notifications.slice(index + 1)) {
          if (notification === undefined) continue;
          state.replayed.add(notification.id);
          subscriber.deliver({ type: 'notification', notification, alert: false, replay: true });
        }
      }
    } catch (error) {
      this.#options.logger.warn(
        { err: error, travelerId: this.travelerId },
        'stream start without fleet state',
      );
      subscriber.deliver({ type: 'status', state: 'reconnecting' });
      state.awaitingInitialResync = true;
    }
    state.ready = true;
    for (const event of state.queued) {
      if (event.type === 'notification' && state.replayed.has(event.notification.id)) continue;
      subscriber.deliver(event);
    }
    state.queued = [];
    state.replayed.clear();
  }

  async #deliverNotification(notification: Notification, entry: string, ack: string): Promise<void> {
    if (entry !== '' && (this.#lastEntry === undefined || compareEntries(entry, this.#lastEntry) > 0)) {
      this.#lastEntry = entry;
    }
    let shownLive = false;
    if (this.#delivered.add(notification.id)) {
      const alerted = await this.#fleetAlertTarget();
      for (const [subscriber, state] of this.#subscribers) {
        const event: HubEvent = {
          type: 'notification',
          notification,
          alert: subscriber === alerted,
          replay: false,
        };
        if (this.#send(subscriber, state, event) && state.visible) shownLive = true;
      }
    } else {
      this.#counters.duplicatesDropped += 1;
    }
    try {
      if (shownLive) await this.#options.ledger.recordShownLive(this.travelerId, notification.id);
      if (ack !== '') {
        await this.#redis.client.multi().incr(ack).pexpire(ack, 10_000).exec();
      }
    } catch (error) {
      this.#options.logger.warn({ err: error, travelerId: this.travelerId }, 'live delivery not recorded');
    }
  }

  /** Writes now, or after the subscriber's initial replay; true when written (or queued). */
  #send(subscriber: HubSubscriber, state: SubscriberState, event: HubEvent): boolean {
    if (!state.ready) {
      state.queued.push(event);
      return true;
    }
    return subscriber.deliver(event);
  }

  #resync(
    subscriber: HubSubscriber,
    state: SubscriberState,
    reason: NotificationResyncReason,
    immediately = false,
  ): void {
    this.#counters.resyncs += 1;
    if (immediately) subscriber.deliver({ type: 'resync', reason });
    else this.#send(subscriber, state, { type: 'resync', reason });
  }

  #alertTarget(): HubSubscriber | undefined {
    let target: HubSubscriber | undefined;
    let since = -Infinity;
    for (const [subscriber, state] of this.#subscribers) {
      if (state.visible && state.visibleSince >= since) {
        target = subscriber;
        since = state.visibleSince;
      }
    }
    return target;
  }

  /**
   * The toast goes to the one tab that became visible last across the fleet: the local candidate,
   * unless another instance reports a tab that became visible later (ties go to the lower instance id).
   * Without Redis, each instance decides alone.
   */
  async #fleetAlertTarget(): Promise<HubSubscriber | undefined> {
    const target = this.#alertTarget();
    if (target === undefined) return undefined;
    const since = this.#subscribers.get(target)?.visibleSince ?? 0;
    try {
      const others = await this.#redis.client.hgetall(this.#visibilityKey);
      const now = Date.now();
      for (const [instanceId, value] of Object.entries(others)) {
        if (instanceId === this.#redis.instanceId) continue;
        const other = JSON.parse(value) as SharedVisibility;
        if (other.until <= now) continue;
        if (other.since > since || (other.since === since && instanceId < this.#redis.instanceId)) {
          return undefined;
        }
      }
    } catch (error) {
      this.#options.logger.debug({ err: error }, 'fleet visibility unknown: alerting locally');
    }
    return target;
  }

  /** Tells the fleet when this instance's most recent visible tab of the traveler became visible. */
  #shareVisibility(): void {
    let since: number | undefined;
    for (const state of this.#subscribers.values()) {
      if (state.visible && (since === undefined || state.visibleSince > since)) since = state.visibleSince;
    }
    const key = this.#visibilityKey;
    const ttlMs = this.#options.leaseMs * 2;
    const { client, instanceId } = this.#redis;
    const shared: SharedVisibility | undefined =
      since === undefined ? undefined : { since, until: Date.now() + ttlMs };
    const write =
      shared === undefined
        ? client.hdel(key, instanceId)
        : client.multi().hset(key, instanceId, JSON.stringify(shared)).pexpire(key, ttlMs).exec();
    write.catch(() => undefined);
  }

  get #visibilityKey(): string {
    return this.#redis.key('hub-visible', this.travelerId);
  }

  #remove(subscriber: HubSubscriber): void {
    const state = this.#subscribers.get(subscriber);
    if (!this.#subscribers.delete(subscriber)) return;
    if (state?.visible) this.#shareVisibility();
    if (this.#subscribers.size === 0) this.#startLinger();
  }

  #startLinger(): void {
    clearTimeout(this.#lingerTimer);
    this.#lingerTimer = setTimeout(() => this.stop(), this.#options.lingerMs);
    this.#lingerTimer.unref();
  }

  /** Takes the lease when it is free, keeps it while held; a third of a lease apart. */
  async #leaseTick(): Promise<void> {
    if (this.#stopped) return;
    // An entry of an instance that died expires by itself: each live one is renewed here.
    if (this.#subscribers.size > 0) this.#shareVisibility();
    const leaseKey = this.#redis.key('hub-lease', this.travelerId);
    // Only an instance with browser streams takes the lease: it needs one of their sessions' tokens.
    if (this.#upstream === undefined && this.#subscribers.size === 0) {
      this.#scheduleLeaseTick();
      return;
    }
    try {
      const held = await this.#redis.client.eval(
        LEASE_SCRIPT,
        1,
        leaseKey,
        this.#redis.instanceId,
        this.#options.leaseMs,
      );
      if (this.#stopped) {
        if (held === 1) await this.#redis.client.eval(RELEASE_SCRIPT, 1, leaseKey, this.#redis.instanceId);
        return;
      }
      if (held === 1) this.#hold();
      else this.#letGo();
      await this.#upstream?.refreshState();
    } catch (error) {
      // Redis unreachable: the lease cannot be kept, so another instance may hold it when Redis returns.
      if (this.#upstream) {
        this.#options.logger.warn({ err: error, travelerId: this.travelerId }, 'notification lease lost');
      }
      this.#letGo(false);
    }
    this.#scheduleLeaseTick();
  }

  #scheduleLeaseTick(): void {
    if (this.#stopped) return;
    this.#leaseTimer = setTimeout(() => void this.#leaseTick(), Math.max(100, this.#options.leaseMs / 3));
    this.#leaseTimer.unref();
  }

  #hold(): void {
    if (this.#upstream !== undefined) return;
    const credential = this.#subscribers.keys().next().value?.sessionId;
    if (credential === undefined) return;
    this.#options.logger.info({ travelerId: this.travelerId }, 'holding the notification upstream');
    this.#upstream = new UpstreamHolder(this.travelerId, credential, this.#options, this.#counters, (gone) =>
      this.#endSessionEverywhere(gone, 'expired'),
    );
  }

  #letGo(release = true): void {
    const upstream = this.#upstream;
    if (upstream === undefined) return;
    this.#upstream = undefined;
    upstream.stop();
    if (!release) return;
    this.#redis.client
      .eval(RELEASE_SCRIPT, 1, this.#redis.key('hub-lease', this.travelerId), this.#redis.instanceId)
      .catch(() => undefined);
  }
}

/**
 * The upstream notification stream of one traveler, kept by the lease holder: open, catch up from the
 * fleet's checkpoint, read live, reconnect with back-off; every notification goes to the fleet.
 */
class UpstreamHolder {
  readonly #travelerId: string;
  readonly #options: FleetNotificationHubOptions;
  readonly #redis: SharedRedis;
  readonly #counters: Counters;
  readonly #stop = new AbortController();
  /** The session whose token opened the stream no longer exists: its streams end, another takes over. */
  readonly #onCredentialGone: (sessionId: string) => void;
  #credential: string;
  #attempt: AbortController | undefined;
  #state: NotificationStreamState = 'connecting';
  #retryHintMs: number | undefined;

  constructor(
    travelerId: string,
    credential: string,
    options: FleetNotificationHubOptions,
    counters: Counters,
    onCredentialGone: (sessionId: string) => void,
  ) {
    this.#travelerId = travelerId;
    this.#credential = credential;
    this.#options = options;
    this.#redis = options.redis;
    this.#counters = counters;
    this.#onCredentialGone = onCredentialGone;
    void this.#run();
  }

  get credential(): string {
    return this.#credential;
  }

  replaceCredential(sessionId: string): void {
    this.#credential = sessionId;
    this.#attempt?.abort();
  }

  stop(): void {
    this.#stop.abort();
  }

  /** Keeps the fleet's view of the upstream's state alive while this instance holds it. */
  async refreshState(): Promise<void> {
    await this.#redis.client.set(
      this.#redis.key('hub-state', this.#travelerId),
      this.#state,
      'PX',
      this.#options.leaseMs * 2,
    );
  }

  async #setState(state: NotificationStreamState): Promise<void> {
    if (this.#state === state) return;
    this.#state = state;
    try {
      await this.refreshState();
      await this.#publish({ type: 'status', state });
    } catch (error) {
      this.#options.logger.warn({ err: error, travelerId: this.#travelerId }, 'upstream state not shared');
    }
  }

  async #publish(message: ChannelMessage): Promise<void> {
    await this.#redis.client.publish(this.#redis.key('hub', this.#travelerId), JSON.stringify(message));
  }

  async #run(): Promise<void> {
    const stopSignal = this.#stop.signal;
    let failures = 0;
    while (!stopSignal.aborted) {
      const attempt = new AbortController();
      this.#attempt = attempt;
      // Stopping the channel aborts the attempt: one signal per attempt, no AbortSignal.any composite
      // (and its weak references) kept alive for the hours an upstream stream lasts.
      const stopAttempt = () => attempt.abort(stopSignal.reason);
      stopSignal.addEventListener('abort', stopAttempt, { once: true });
      const signal = attempt.signal;
      let endedByDone = false;
      try {
        const body = await this.#options.upstream.openStream(this.#credential, signal);
        this.#counters.upstreamConnects += 1;
        await this.#catchUp(signal);
        await this.#setState('live');
        failures = 0;
        endedByDone = await this.#readLive(body, signal);
      } catch (error) {
        if (stopSignal.aborted) break;
        if (error instanceof AppError && error.code === 'SESSION_EXPIRED') {
          this.#onCredentialGone(this.#credential);
          if (stopSignal.aborted) break;
        } else if (!attempt.signal.aborted) {
          failures += 1;
          this.#options.logger.warn(
            { travelerId: this.#travelerId, err: error, failures },
            'notification upstream failed',
          );
        }
      } finally {
        stopSignal.removeEventListener('abort', stopAttempt);
        attempt.abort();
      }
      if (stopSignal.aborted) break;
      this.#counters.upstreamDrops += 1;
      await this.#setState('reconnecting');
      const delay = reconnectDelay(endedByDone ? 0 : failures, {
        baseMs: this.#options.reconnectBaseMs,
        capMs: this.#options.reconnectCapMs,
        retryHintMs: this.#retryHintMs,
      });
      await sleep(delay, undefined, { signal: stopSignal }).catch(() => undefined);
    }
  }

  /**
   * Reads the live stream until it ends; true when it ended with the upstream's `done`. Each
   * notification is published to the fleet in arrival order (one publish after the other).
   */
  async #readLive(body: Readable, signal: AbortSignal): Promise<boolean> {
    let endedByDone = false;
    let publishing: Promise<unknown> = Promise.resolve();
    // However the read ends, the publishes it started finish (or fail) before this returns.
    await readSseBody(body, {
      signal,
      // The only guard against an upstream connection that died without a FIN: reopen after this silence.
      ...(this.#options.upstreamIdleMs === undefined ? {} : { idleTimeoutMs: this.#options.upstreamIdleMs }),
      onRetry: (retryMs) => {
        this.#retryHintMs = retryMs;
      },
      onEvent: (message) => {
        if (message.event === 'done') {
          endedByDone = true;
          return false;
        }
        if (message.event !== 'notification') return true;
        const notification = parseNotification(message.data);
        if (notification === undefined) {
          this.#options.logger.warn({ travelerId: this.#travelerId }, 'malformed notification event skipped');
          return true;
        }
        publishing = publishing.then(() => this.#ingest(notification, 'publish'));
        // Awaited when the read ends; marked handled so a failed publish is no unhandled rejection meanwhile.
        publishing.catch(() => undefined);
        return true;
      },
    }).finally(() => publishing);
    return endedByDone;
  }

  async #ingest(notification: Notification, mode: 'publish' | 'baseline'): Promise<boolean> {
    if (!EVENT_ID.test(notification.id)) return false;
    const reached = await publishNotification(this.#redis, this.#travelerId, notification, mode, '');
    if (reached === -1) this.#counters.duplicatesDropped += 1;
    return reached !== -1;
  }

  /**
   * Pages the list back to the fleet's checkpoint (the newest id any holder saw at its last catch-up),
   * publishing what nobody published yet. Without a checkpoint (the traveler's first stream anywhere)
   * it only records what exists: the SPA lists those itself.
   */
  async #catchUp(signal: AbortSignal): Promise<void> {
    const checkpointKey = this.#redis.key('hub-checkpoint', this.#travelerId);
    // '' records a baseline taken while the list was empty: everything listed later is new.
    const stored = await this.#redis.client.get(checkpointKey);
    const baselined = stored !== null;
    const checkpoint = stored === null || stored === '' ? undefined : stored;
    const collected: Notification[] = [];
    let before: string | undefined;
    let reachedCheckpoint = false;
    let exhausted = false;
    let head: string | undefined;
    for (let page = 0; page < this.#options.maxCatchUpPages; page += 1) {
      const { items, nextCursor } = await this.#options.upstream.listPage(this.#credential, before, signal);
      if (page === 0) head = items[0]?.id;
      for (const item of items) {
        if (item.id === checkpoint) {
          reachedCheckpoint = true;
          break;
        }
        collected.push(item);
      }
      if (nextCursor === null) exhausted = true;
      if (reachedCheckpoint || nextCursor === null || !baselined) break;
      before = nextCursor;
    }
    collected.reverse();
    for (const item of collected) {
      const fresh = await this.#ingest(item, baselined ? 'publish' : 'baseline');
      if (fresh && baselined) this.#counters.caughtUp += 1;
    }
    // Pages missing before the checkpoint, or a new baseline (Redis lost the traveler's state, e.g. a
    // restart without persistence): browsers that were already reading refetch their inbox.
    if (!baselined || (!reachedCheckpoint && !exhausted)) {
      this.#counters.resyncs += 1;
      await this.#publish({ type: 'resync', reason: 'gap' });
    }
    if (head !== undefined || !baselined) {
      await this.#redis.client.eval(
        SET_IF_HOLDER_SCRIPT,
        2,
        this.#redis.key('hub-lease', this.#travelerId),
        checkpointKey,
        this.#redis.instanceId,
        head ?? '',
        STATE_TTL_MS,
      );
    }
  }
}

/** An id that is also a valid SSE `id:` (no line break, no NUL), so it can be the browser's Last-Event-ID. */
const EVENT_ID = /^[^\r\n\0]+$/;

function parseNotification(data: string): Notification | undefined {
  try {
    const parsed = NotificationSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A Redis stream entry's fields, [name, value, ...], to its notification. */
function parseEntry(fields: string[]): Notification | undefined {
  const index = fields.indexOf('n');
  const value = index === -1 ? undefined : fields[index + 1];
  return value === undefined ? undefined : parseNotification(value);
}

/** Orders Redis stream entry ids (`ms-seq`). */
function compareEntries(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number);
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number);
  return aMs - bMs || aSeq - bSeq;
}
