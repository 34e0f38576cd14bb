import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { NotificationSchema, type Notification } from '#shared/upstream/notifications.ts';
import type {
  NotificationResyncReason,
  NotificationStreamState,
} from '#shared/api/notification-stream-events.ts';
import { readSseBody } from '../streams/read-sse-body.ts';
import { reconnectDelay } from '#shared/reconnect-delay.ts';
import { BoundedIdSet } from './bounded-id-set.ts';
import { RecentBuffer } from './recent-buffer.ts';

/** What the hub needs of the travel API, on behalf of one of the traveler's sessions. */
export interface NotificationUpstream {
  /** Opens GET /v1/me/notifications/stream; resolves with the body once the upstream answered 200. */
  openStream(sessionId: string, signal: AbortSignal): Promise<Readable>;
  /** One page of GET /v1/me/notifications, newest first. */
  listPage(
    sessionId: string,
    before: string | undefined,
    signal: AbortSignal,
  ): Promise<{ items: Notification[]; nextCursor: string | null }>;
}

/** What a browser stream is told by the hub. */
export type HubEvent =
  | { type: 'notification'; notification: Notification; alert: boolean; replay: boolean }
  | { type: 'status'; state: NotificationStreamState }
  | { type: 'resync'; reason: NotificationResyncReason };

/** One browser stream of a traveler, as the hub sees it. */
export interface HubSubscriber {
  readonly sessionId: string;
  /** The SPA's id for its tab, so that visibility reports reach the right stream. */
  readonly tabId: string | undefined;
  /** Writes the event; false when the stream has closed. */
  deliver(event: HubEvent): boolean;
  /** Ends the stream because its session ended. */
  endSession(reason: string): void;
}

export interface NotificationHubOptions {
  upstream: NotificationUpstream;
  logger: FastifyBaseLogger;
  /** How long a traveler's upstream stream stays open after their last browser stream went. */
  lingerMs: number;
  reconnectBaseMs: number;
  reconnectCapMs: number;
  /** Silence (not even a heartbeat) after which an upstream stream counts as dead and is reopened. */
  upstreamIdleMs?: number;
  /** Notification ids remembered per traveler for dedupe. */
  dedupeCapacity: number;
  /** Notifications kept per traveler for Last-Event-ID resume. */
  resumeCapacity: number;
  /** Catch-up pages read at most after a reconnect before the hub gives up and asks for a resync. */
  maxCatchUpPages: number;
  /** Called once per notification delivered live to at least one visible app. */
  onShownLive?: (travelerId: string, notificationId: string) => void;
}

export interface SubscribeInput {
  travelerId: string;
  subscriber: HubSubscriber;
  visible: boolean;
  lastEventId: string | undefined;
}

export interface NotificationHubStats {
  channels: number;
  subscribers: number;
  upstreamConnects: number;
  upstreamDrops: number;
  caughtUp: number;
  duplicatesDropped: number;
  resyncs: number;
}

interface SubscriberState {
  visible: boolean;
  /** When the stream last became visible: the most recent one shows the toast. */
  visibleSince: number;
  /** A fresh stream gets `resync` once the traveler's channel is live (its inbox may be behind). */
  awaitingInitialResync: boolean;
}

/**
 * One upstream notification stream per signed-in traveler, shared by all of the traveler's browser
 * streams on this process. After every upstream (re)connect it catches up through the list endpoint,
 * because the upstream's live stream is a lossy hint (notification rule 3); every notification id
 * reaches the traveler's browsers once, whichever of live, catch-up or push brought it first.
 */
export class NotificationHub {
  readonly #options: NotificationHubOptions;
  readonly #channels = new Map<string, TravelerChannel>();
  readonly #counters = {
    upstreamConnects: 0,
    upstreamDrops: 0,
    caughtUp: 0,
    duplicatesDropped: 0,
    resyncs: 0,
  };

  constructor(options: NotificationHubOptions) {
    this.#options = options;
  }

  subscribe(input: SubscribeInput): () => void {
    let channel = this.#channels.get(input.travelerId);
    if (channel === undefined) {
      const created = new TravelerChannel(input.travelerId, this.#options, this.#counters, () => {
        if (this.#channels.get(input.travelerId) === created) this.#channels.delete(input.travelerId);
      });
      this.#channels.set(input.travelerId, created);
      channel = created;
    }
    return channel.add(input.subscriber, input.visible, input.lastEventId);
  }

  /** Records that a tab became visible or hidden; returns false when no stream of that tab is open. */
  setVisibility(sessionId: string, tabId: string, visible: boolean): boolean {
    let found = false;
    for (const channel of this.#channels.values()) {
      if (channel.setVisibility(sessionId, tabId, visible)) found = true;
    }
    return found;
  }

  /**
   * A notification that reached the process another way (the push channel). Delivered like a live one
   * when the traveler has streams open here; dropped as a duplicate when it already was.
   */
  ingest(travelerId: string, notification: Notification): void {
    this.#channels.get(travelerId)?.ingest(notification, 'push');
  }

  /** Ends every stream of the session and lets go of the upstream if no other session needs it. */
  endSession(sessionId: string, reason: string): void {
    for (const channel of [...this.#channels.values()]) channel.endSession(sessionId, reason);
  }

  /** Stops every upstream stream (browser streams are ended by the SSE registry). */
  close(): void {
    for (const channel of [...this.#channels.values()]) channel.stop();
    this.#channels.clear();
  }

  stats(): NotificationHubStats {
    let subscribers = 0;
    for (const channel of this.#channels.values()) subscribers += channel.subscriberCount;
    return { channels: this.#channels.size, subscribers, ...this.#counters };
  }
}

type Counters = Omit<NotificationHubStats, 'channels' | 'subscribers'>;

class TravelerChannel {
  readonly #travelerId: string;
  readonly #options: NotificationHubOptions;
  readonly #counters: Counters;
  readonly #onStopped: () => void;
  readonly #subscribers = new Map<HubSubscriber, SubscriberState>();
  readonly #seen: BoundedIdSet;
  readonly #recent: RecentBuffer<Notification>;
  readonly #stop = new AbortController();
  #state: NotificationStreamState = 'connecting';
  #running = false;
  #lingerTimer: NodeJS.Timeout | undefined;
  /** The session whose token the upstream stream uses; kept during the linger after its tab went. */
  #credential: string | undefined;
  /** Whether the first catch-up (which only records what already exists) has run. */
  #baselined = false;
  /** The newest id the list showed at the last catch-up: where the next catch-up stops. */
  #checkpoint: string | undefined;
  #retryHintMs: number | undefined;
  /** Aborting the current attempt makes the loop reconnect with the current credential. */
  #attempt: AbortController | undefined;

  constructor(
    travelerId: string,
    options: NotificationHubOptions,
    counters: Counters,
    onStopped: () => void,
  ) {
    this.#travelerId = travelerId;
    this.#options = options;
    this.#counters = counters;
    this.#onStopped = onStopped;
    this.#seen = new BoundedIdSet(options.dedupeCapacity);
    this.#recent = new RecentBuffer(options.resumeCapacity);
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  add(subscriber: HubSubscriber, visible: boolean, lastEventId: string | undefined): () => void {
    clearTimeout(this.#lingerTimer);
    this.#lingerTimer = undefined;
    this.#credential ??= subscriber.sessionId;
    const state: SubscriberState = { visible, visibleSince: Date.now(), awaitingInitialResync: false };
    this.#subscribers.set(subscriber, state);
    subscriber.deliver({ type: 'status', state: this.#state });
    this.#resume(subscriber, state, lastEventId);
    if (!this.#running) void this.#run();
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
    return found;
  }

  endSession(sessionId: string, reason: string): void {
    for (const subscriber of [...this.#subscribers.keys()]) {
      if (subscriber.sessionId !== sessionId) continue;
      this.#subscribers.delete(subscriber);
      subscriber.endSession(reason);
    }
    if (this.#credential === sessionId) {
      this.#credential = this.#subscribers.keys().next().value?.sessionId;
      // The upstream stream was opened with the ended session's token: it must not outlive it.
      if (this.#credential === undefined) this.stop();
      else this.#restartUpstream();
    }
  }

  ingest(notification: Notification, source: 'live' | 'catch-up' | 'push'): void {
    if (!EVENT_ID.test(notification.id)) {
      this.#options.logger.warn(
        { travelerId: this.#travelerId, source },
        'notification with an unusable id skipped',
      );
      return;
    }
    if (!this.#seen.add(notification.id)) {
      this.#counters.duplicatesDropped += 1;
      return;
    }
    if (source === 'catch-up') this.#counters.caughtUp += 1;
    this.#recent.push(notification);
    const alerted = this.#alertTarget();
    // Two events at most per fan-out, shared by every stream: the toast tab's and everyone else's.
    const quiet: HubEvent = { type: 'notification', notification, alert: false, replay: false };
    const alerting: HubEvent = { ...quiet, alert: true };
    let shownLive = false;
    for (const [subscriber, state] of this.#subscribers) {
      const delivered = subscriber.deliver(subscriber === alerted ? alerting : quiet);
      if (delivered && state.visible) shownLive = true;
    }
    this.#options.logger.debug(
      { travelerId: this.#travelerId, notificationId: notification.id, source, shownLive },
      'notification fanned out',
    );
    if (shownLive) this.#options.onShownLive?.(this.#travelerId, notification.id);
  }

  stop(): void {
    clearTimeout(this.#lingerTimer);
    this.#stop.abort();
    this.#onStopped();
  }

  #resume(subscriber: HubSubscriber, state: SubscriberState, lastEventId: string | undefined): void {
    if (lastEventId === undefined) {
      if (this.#state === 'live') this.#resync(subscriber, 'initial');
      else state.awaitingInitialResync = true;
      return;
    }
    const missed = this.#recent.after(lastEventId);
    if (!missed.found) {
      this.#resync(subscriber, 'unknown-last-event-id');
      return;
    }
    for (const notification of missed.items) {
      subscriber.deliver({ type: 'notification', notification, alert: false, replay: true });
    }
  }

  #resync(subscriber: HubSubscriber, reason: NotificationResyncReason): void {
    this.#counters.resyncs += 1;
    subscriber.deliver({ type: 'resync', reason });
  }

  /** The visible stream that became visible last: the one tab that shows the toast. */
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

  #remove(subscriber: HubSubscriber): void {
    if (!this.#subscribers.delete(subscriber)) return;
    if (this.#subscribers.size > 0 || this.#stop.signal.aborted) return;
    this.#lingerTimer = setTimeout(() => this.stop(), this.#options.lingerMs);
    this.#lingerTimer.unref();
  }

  #setState(state: NotificationStreamState): void {
    if (this.#state === state) return;
    this.#state = state;
    for (const [subscriber, subscriberState] of this.#subscribers) {
      subscriber.deliver({ type: 'status', state });
      if (state === 'live' && subscriberState.awaitingInitialResync) {
        subscriberState.awaitingInitialResync = false;
        this.#resync(subscriber, 'initial');
      }
    }
  }

  #broadcastResync(reason: NotificationResyncReason): void {
    for (const subscriber of this.#subscribers.keys()) this.#resync(subscriber, reason);
  }

  #restartUpstream(): void {
    this.#attempt?.abort();
  }

  async #run(): Promise<void> {
    this.#running = true;
    const stopSignal = this.#stop.signal;
    let failures = 0;
    while (!stopSignal.aborted && this.#credential !== undefined) {
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
        await this.#catchUp(this.#credential, signal);
        this.#setState('live');
        failures = 0;
        endedByDone = await this.#readLive(body, signal);
      } catch (error) {
        if (stopSignal.aborted) break;
        if (!attempt.signal.aborted) {
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
      this.#setState('reconnecting');
      const delay = reconnectDelay(endedByDone ? 0 : failures, {
        baseMs: this.#options.reconnectBaseMs,
        capMs: this.#options.reconnectCapMs,
        retryHintMs: this.#retryHintMs,
      });
      await sleep(delay, stopSignal);
    }
    this.#running = false;
  }

  /** Reads the live stream until it ends; true when it ended with the upstream's `done`. */
  async #readLive(body: Readable, signal: AbortSignal): Promise<boolean> {
    let endedByDone = false;
    await readSseBody(body, {
      signal,
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
        const parsed = parseNotification(message.data);
        if (parsed === undefined) {
          this.#options.logger.warn({ travelerId: this.#travelerId }, 'malformed notification event skipped');
        } else {
          this.ingest(parsed, 'live');
        }
        return true;
      },
    });
    return endedByDone;
  }

  /**
   * Pages the list back to the checkpoint (the newest id of the previous catch-up), so whatever the
   * live stream missed in between is delivered. The first catch-up of a channel only records what
   * exists: the SPA lists those itself.
   */
  async #catchUp(sessionId: string, signal: AbortSignal): Promise<void> {
    const collected: Notification[] = [];
    let before: string | undefined;
    let reachedCheckpoint = false;
    let exhausted = false;
    let head: string | undefined;
    for (let page = 0; page < this.#options.maxCatchUpPages; page += 1) {
      const { items, nextCursor } = await this.#options.upstream.listPage(sessionId, before, signal);
      if (page === 0) head = items[0]?.id;
      for (const item of items) {
        if (item.id === this.#checkpoint) {
          reachedCheckpoint = true;
          break;
        }
        collected.push(item);
      }
      if (nextCursor === null) exhausted = true;
      if (reachedCheckpoint || nextCursor === null || !this.#baselined) break;
      before = nextCursor;
    }
    collected.reverse();
    if (!this.#baselined) {
      for (const item of collected) {
        this.#seen.add(item.id);
        this.#recent.push(item);
      }
      this.#baselined = true;
    } else {
      for (const item of collected) this.ingest(item, 'catch-up');
      if (!reachedCheckpoint && !exhausted) this.#broadcastResync('gap');
    }
    if (head !== undefined) this.#checkpoint = head;
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
