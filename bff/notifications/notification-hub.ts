import type { FastifyBaseLogger } from 'fastify';
import type {
  NotificationResyncReason,
  NotificationStreamState,
} from '#shared/api/notification-stream-events.ts';
import type { Notification } from '#shared/upstream/notifications.ts';
import {
  EVENT_ID,
  type ControlMessage,
  type NotificationStore,
  type NotificationStoreLimits,
} from './notification-store.ts';
import type { NotificationHubCounters, NotificationUpstream } from './notification-upstream-reader.ts';
import { TravelerChannel } from './traveler-channel.ts';
import { ConcurrencyGate } from './concurrency-gate.ts';
import { activeTraceparent } from '#shared/observability/trace-context.ts';
import { bffMetrics } from '../observability/bff-metrics.ts';

export type { NotificationUpstream, NotificationUpstreamCalls } from './notification-upstream-reader.ts';

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

/**
 * Upstream streams one hub opens and catches up at a time, unless given a gate of its own (the default of
 * NOTIFICATION_REOPEN_CONCURRENCY). Each takes about 2 ms of the process's CPU and a few round trips to
 * the travel API; with 5,000 travelers' streams reopening at once, all in flight together made every
 * traveler wait as long as the last (`npm run bench -- sse --reconnect-only`).
 */
export const REOPEN_CONCURRENCY = 64;

/** The longest one reader keeps its place at the gate (the default of NOTIFICATION_REOPEN_TURN_MS). */
export const REOPEN_TURN_MS = 2_000;

export interface NotificationHubOptions extends NotificationStoreLimits {
  /** Builds the store the hub shares its state through (in-process, or Redis for a fleet). */
  store: (limits: NotificationStoreLimits) => NotificationStore;
  upstream: NotificationUpstream;
  logger: FastifyBaseLogger;
  /** How long a traveler's upstream stream stays open after their last browser stream went. */
  lingerMs: number;
  reconnectBaseMs: number;
  reconnectCapMs: number;
  /** Silence (not even a heartbeat) after which an upstream stream counts as dead and is reopened. */
  upstreamIdleMs?: number | undefined;
  /** Catch-up pages read at most after a reconnect before the hub gives up and asks for a resync. */
  maxCatchUpPages: number;
  /** Where the readers wait to open and catch up their upstream streams (REOPEN_CONCURRENCY at a time). */
  reopenGate?: ConcurrencyGate | undefined;
  /** Called once per notification delivered live to at least one visible app on this hub. */
  onShownLive?: ((travelerId: string, notificationId: string) => void | Promise<void>) | undefined;
  /** How long `ingest` waits for the hubs holding the traveler's streams to have delivered it. */
  ackTimeoutMs?: number | undefined;
}

export interface SubscribeInput {
  travelerId: string;
  subscriber: HubSubscriber;
  visible: boolean;
  lastEventId: string | undefined;
}

export interface NotificationHubStats extends NotificationHubCounters {
  channels: number;
  subscribers: number;
}

/**
 * One upstream notification stream per signed-in traveler, shared by all of the traveler's browser
 * streams: on this process with the in-process store, across a fleet with the Redis store (the hub
 * holding the traveler's lease reads it and publishes to the others). After every upstream (re)connect
 * it catches up through the list endpoint, because the upstream's live stream is a lossy hint
 * (notification rule 3); every notification id reaches the traveler's browsers once, whichever of
 * live, catch-up or push brought it first.
 */
export class NotificationHub {
  readonly #options: NotificationHubOptions;
  readonly #store: NotificationStore;
  readonly #channels = new Map<string, TravelerChannel>();
  readonly #counters: NotificationHubCounters = {
    upstreamConnects: 0,
    upstreamDrops: 0,
    caughtUp: 0,
    duplicatesDropped: 0,
    resyncs: 0,
    leaseRenewals: 0,
  };
  #closed = false;

  constructor(options: NotificationHubOptions) {
    // One gate for every traveler's reader: streams reopening together are opened a few at a time.
    this.#options = {
      ...options,
      reopenGate: options.reopenGate ?? new ConcurrencyGate(REOPEN_CONCURRENCY, { turnMs: REOPEN_TURN_MS }),
    };
    this.#store = options.store({
      dedupeCapacity: options.dedupeCapacity,
      resumeCapacity: options.resumeCapacity,
    });
    this.#store.listen({
      channel: (travelerId, message) => {
        if (!this.#closed) this.#channels.get(travelerId)?.receive(message);
      },
      control: (message) => {
        if (!this.#closed) this.#applyControl(message);
      },
      resubscribed: () => {
        for (const channel of this.#channels.values()) void channel.replayMissed();
      },
      leaseReleased: (travelerId) => {
        if (!this.#closed) this.#channels.get(travelerId)?.takeLeaseIfFree();
      },
    });
  }

  subscribe(input: SubscribeInput): () => void {
    let channel = this.#channels.get(input.travelerId);
    if (channel === undefined) {
      const created = new TravelerChannel(input.travelerId, this.#options, this.#store, this.#counters, {
        onStopped: () => {
          if (this.#channels.get(input.travelerId) === created) this.#channels.delete(input.travelerId);
        },
        endSession: (sessionId, reason) => this.endSession(sessionId, reason),
      });
      this.#channels.set(input.travelerId, created);
      channel = created;
    }
    return channel.add(input.subscriber, input.visible, input.lastEventId);
  }

  /**
   * Records that a tab became visible or hidden, here and on every hub sharing the store (the report
   * may reach another one than the stream); returns false when no stream of that tab is open here.
   */
  setVisibility(sessionId: string, tabId: string, visible: boolean): boolean {
    this.#store.broadcast({ type: 'visibility', sessionId, tabId, visible });
    return this.#applyVisibility(sessionId, tabId, visible);
  }

  /**
   * A notification that reached the process another way (the push channel): delivered like a live one
   * unless it is known already. Resolves once every hub with streams of the traveler has written it to
   * them and recorded it as shown live (or after the acknowledgement timeout).
   */
  async ingest(travelerId: string, notification: Notification): Promise<void> {
    if (!EVENT_ID.test(notification.id)) {
      this.#options.logger.warn({ travelerId }, 'notification with an unusable id skipped');
      return;
    }
    const ack = this.#store.newAck(travelerId);
    try {
      // In the trace of the call that brought it (the push webhook continues the travel API's dispatch).
      const traceparent = activeTraceparent();
      const reached = await this.#store.admit(travelerId, {
        notification,
        mode: 'publish',
        ack,
        traceparent,
      });
      if (reached === -1) {
        this.#counters.duplicatesDropped += 1;
        bffMetrics().notificationsDelivered.add('duplicate_dropped');
      }
      if (reached <= 0) return;
      await this.#store.waitForAcks(ack, reached, this.#options.ackTimeoutMs ?? 1000);
    } catch (error) {
      this.#options.logger.warn(
        { travelerId, notificationId: notification.id, err: error },
        'notification not shared with the hubs',
      );
    }
  }

  /** Ends the session's streams here and on every hub sharing the store. */
  endSession(sessionId: string, reason: string): void {
    this.#store.broadcast({ type: 'session-ended', sessionId, reason });
    this.#endSessionHere(sessionId, reason);
  }

  /**
   * The instance drains: stops the upstream streams this hub holds, hands each lease over at once (the
   * release tells the traveler's other hubs, which take it), and leaves the fleet.
   */
  async handOver(): Promise<void> {
    if (this.#closed) return;
    this.#stopChannels();
    try {
      await this.#store.retire();
    } catch (error) {
      this.#options.logger.warn(
        { err: error },
        'leases not handed over: they free themselves when the heartbeat runs out',
      );
    }
  }

  /** Stops the upstream streams this hub holds and hands their leases back at once. */
  close(): void {
    this.#stopChannels();
    this.#store.close();
  }

  #stopChannels(): void {
    this.#closed = true;
    for (const channel of [...this.#channels.values()]) channel.stop();
    this.#channels.clear();
  }

  stats(): NotificationHubStats {
    let subscribers = 0;
    for (const channel of this.#channels.values()) subscribers += channel.subscriberCount;
    return { channels: this.#channels.size, subscribers, ...this.#counters };
  }

  #applyControl(message: ControlMessage): void {
    if (message.type === 'session-ended') this.#endSessionHere(message.sessionId, message.reason);
    else this.#applyVisibility(message.sessionId, message.tabId, message.visible);
  }

  #applyVisibility(sessionId: string, tabId: string, visible: boolean): boolean {
    let found = false;
    for (const channel of this.#channels.values()) {
      if (channel.setVisibility(sessionId, tabId, visible)) found = true;
    }
    return found;
  }

  #endSessionHere(sessionId: string, reason: string): void {
    for (const channel of [...this.#channels.values()]) channel.endSession(sessionId, reason);
  }
}
