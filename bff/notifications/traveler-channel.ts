import type {
  NotificationResyncReason,
  NotificationStreamState,
} from '#shared/api/notification-stream-events.ts';
import type { Notification } from '#shared/upstream/notifications.ts';
import { trace } from '@opentelemetry/api';
import { inSpan } from '#shared/observability/trace-context.ts';
import { BFF_SERVICE_NAME, bffMetrics } from '../observability/bff-metrics.ts';
import { BoundedIdSet } from './bounded-id-set.ts';
import type { HubEvent, HubSubscriber, NotificationHubOptions } from './notification-hub.ts';
import { compareEntries, type ChannelMessage, type NotificationStore } from './notification-store.ts';
import { NotificationUpstreamReader, type NotificationHubCounters } from './notification-upstream-reader.ts';

interface SubscriberState {
  visible: boolean;
  /** When the stream last became visible: the most recent one shows the toast. */
  visibleSince: number;
  /** A fresh stream gets `resync` once the traveler's channel is live (its inbox may be behind). */
  awaitingInitialResync: boolean;
  /** False until the initial status and any Last-Event-ID replay were written; events wait meanwhile. */
  ready: boolean;
  queued: HubEvent[];
  /** The last status written: the welcome's read of the shared state and the channel can both say "live". */
  status: NotificationStreamState | undefined;
}

export interface TravelerChannelHooks {
  onStopped: () => void;
  /** Ends a session's streams on every hub sharing the store. */
  endSession: (sessionId: string, reason: string) => void;
}

/**
 * One traveler as this hub sees them: the browser streams it holds (fan-out, the alert target,
 * Last-Event-ID resume, the initial resync), and the upstream reader while this hub holds the lease.
 */
export class TravelerChannel {
  readonly travelerId: string;
  readonly #options: NotificationHubOptions;
  readonly #store: NotificationStore;
  readonly #counters: NotificationHubCounters;
  readonly #hooks: TravelerChannelHooks;
  readonly #subscribers = new Map<HubSubscriber, SubscriberState>();
  /** Ids written to the browsers here: a replay after a lost channel never repeats one. */
  readonly #delivered: BoundedIdSet;
  #state: NotificationStreamState = 'connecting';
  /** The newest log entry written to the browsers here: where a replay resumes. */
  #lastEntry: string | undefined;
  #leaseTimer: NodeJS.Timeout | undefined;
  #leaseTicking = false;
  #lingerTimer: NodeJS.Timeout | undefined;
  #upstream: NotificationUpstreamReader | undefined;
  #stopped = false;
  /** Settles once the channel is joined (a resume read before it could miss a publication). */
  #joined: Promise<void> = Promise.resolve();

  constructor(
    travelerId: string,
    options: NotificationHubOptions,
    store: NotificationStore,
    counters: NotificationHubCounters,
    hooks: TravelerChannelHooks,
  ) {
    this.travelerId = travelerId;
    this.#options = options;
    this.#store = store;
    this.#counters = counters;
    this.#hooks = hooks;
    this.#delivered = new BoundedIdSet(options.dedupeCapacity);
    this.#joined = store.join(travelerId);
    this.#joined.catch((error: unknown) => {
      options.logger.error({ err: error, travelerId }, 'hub channel subscription failed');
    });
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
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
      status: undefined,
    };
    this.#subscribers.set(subscriber, state);
    if (visible) this.#shareVisibility();
    void this.#welcome(subscriber, state, lastEventId);
    if (this.#upstream === undefined) void this.#leaseTick();
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
      // In the notification's own trace (the one it came with from the travel API, through any instance).
      const { notification, entry, ack, traceparent } = message;
      const attributes = { 'wayfare.notification.event_type': notification.eventType };
      void inSpan(BFF_SERVICE_NAME, 'notification live delivery', { attributes, traceparent }, () =>
        this.#deliverNotification(notification, entry, ack),
      );
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
   * After the store's channels were lost: writes what the traveler's log holds after the last entry
   * written here. When that entry is no longer in the log (trimmed, or the store lost its data),
   * continuity cannot be shown and the browsers are asked to refetch their inbox.
   */
  async replayMissed(): Promise<void> {
    try {
      // The command connection reconnects on its own schedule: it has to be back to read the log.
      await this.#store.reachable((this.#store.leaseRenewMs ?? 1000) * 6);
      const missed =
        this.#lastEntry === undefined
          ? undefined
          : await this.#store.logAfter(this.travelerId, this.#lastEntry);
      if (missed === undefined) this.receive({ type: 'resync', reason: 'gap' });
      for (const { entry, notification } of missed ?? []) {
        await this.#deliverNotification(notification, entry, '');
      }
      const shared = await this.#store.upstreamState(this.travelerId);
      if (shared !== null && shared !== this.#state) this.receive({ type: 'status', state: shared });
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
    this.#store.leave(this.travelerId);
    this.#hooks.onStopped();
  }

  /**
   * Sessions can vanish without their end reaching this hub (a control message lost while the channel
   * was down, or a store that came back empty): their streams end here.
   */
  async #endVanishedSessions(): Promise<void> {
    const sessionIds = new Set([...this.#subscribers.keys()].map((subscriber) => subscriber.sessionId));
    for (const sessionId of sessionIds) {
      if (!(await this.#store.sessionExists(sessionId))) this.#hooks.endSession(sessionId, 'expired');
    }
  }

  async #welcome(subscriber: HubSubscriber, state: SubscriberState, lastEventId: string | undefined) {
    // What the Last-Event-ID replay wrote, so that the events queued meanwhile do not repeat it.
    const replayed = new Set<string>();
    try {
      await this.#joined;
      const shared = await this.#store.upstreamState(this.travelerId);
      if (shared !== null) this.#state = shared;
      this.#write(subscriber, state, { type: 'status', state: this.#state });
      if (lastEventId === undefined) {
        // Unless the channel's "live" reached this stream first and queued its initial resync.
        if (this.#state === 'live' && state.awaitingInitialResync) {
          state.awaitingInitialResync = false;
          this.#resync(subscriber, state, 'initial', true);
        }
      } else {
        const log = await this.#store.log(this.travelerId);
        const index = log.findLastIndex(({ notification }) => notification.id === lastEventId);
        if (index === -1) this.#resync(subscriber, state, 'unknown-last-event-id', true);
        for (const { notification } of index === -1 ? [] : log.slice(index + 1)) {
          replayed.add(notification.id);
          subscriber.deliver({ type: 'notification', notification, alert: false, replay: true });
        }
      }
    } catch (error) {
      this.#options.logger.warn(
        { err: error, travelerId: this.travelerId },
        'stream start without shared state',
      );
      this.#write(subscriber, state, { type: 'status', state: 'reconnecting' });
      state.awaitingInitialResync = true;
    }
    state.ready = true;
    for (const event of state.queued) {
      if (event.type === 'notification' && replayed.has(event.notification.id)) continue;
      this.#write(subscriber, state, event);
    }
    state.queued = [];
  }

  async #deliverNotification(notification: Notification, entry: string, ack: string): Promise<void> {
    if (entry !== '' && (this.#lastEntry === undefined || compareEntries(entry, this.#lastEntry) > 0)) {
      this.#lastEntry = entry;
    }
    let shownLive = false;
    if (this.#delivered.add(notification.id)) {
      const alerted = await this.#alertTarget();
      // Two events at most per fan-out, shared by every stream: the toast tab's and everyone else's.
      const quiet: HubEvent = { type: 'notification', notification, alert: false, replay: false };
      const alerting: HubEvent = { ...quiet, alert: true };
      let written = false;
      for (const [subscriber, state] of this.#subscribers) {
        const delivered = this.#send(subscriber, state, subscriber === alerted ? alerting : quiet);
        if (delivered) written = true;
        if (delivered && state.visible) shownLive = true;
      }
      if (written) recordLiveDelivery(notification);
      trace.getActiveSpan()?.setAttributes({
        'wayfare.notification.shown_live': shownLive,
        'wayfare.notification.written': written,
      });
      this.#options.logger.debug(
        { travelerId: this.travelerId, notificationId: notification.id, shownLive },
        'notification fanned out',
      );
    } else {
      this.#counters.duplicatesDropped += 1;
      bffMetrics().notificationsDelivered.add('duplicate_dropped');
    }
    try {
      if (shownLive) await this.#options.onShownLive?.(this.travelerId, notification.id);
      if (ack !== '') await this.#store.acknowledge(ack);
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
    return this.#write(subscriber, state, event);
  }

  /** Writes an event; a status the stream already shows is not repeated. */
  #write(subscriber: HubSubscriber, state: SubscriberState, event: HubEvent): boolean {
    if (event.type === 'status') {
      if (event.state === state.status) return true;
      state.status = event.state;
    }
    return subscriber.deliver(event);
  }

  #resync(
    subscriber: HubSubscriber,
    state: SubscriberState,
    reason: NotificationResyncReason,
    now = false,
  ): void {
    this.#counters.resyncs += 1;
    if (now) subscriber.deliver({ type: 'resync', reason });
    else this.#send(subscriber, state, { type: 'resync', reason });
  }

  /**
   * The toast goes to the one tab that became visible last across every hub sharing the store: the
   * local candidate, unless another hub reports a tab that became visible later.
   */
  async #alertTarget(): Promise<HubSubscriber | undefined> {
    let target: HubSubscriber | undefined;
    let since = -Infinity;
    for (const [subscriber, state] of this.#subscribers) {
      if (state.visible && state.visibleSince >= since) {
        target = subscriber;
        since = state.visibleSince;
      }
    }
    if (target === undefined) return undefined;
    try {
      if (await this.#store.visibleElsewhereSince(this.travelerId, since)) return undefined;
    } catch (error) {
      this.#options.logger.debug({ err: error }, 'shared visibility unknown: alerting locally');
    }
    return target;
  }

  /** Tells the other hubs when this hub's most recent visible tab of the traveler became visible. */
  #shareVisibility(): void {
    let since: number | undefined;
    for (const state of this.#subscribers.values()) {
      if (state.visible && (since === undefined || state.visibleSince > since)) since = state.visibleSince;
    }
    this.#store.shareVisibility(this.travelerId, since);
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

  /** Another hub let go of the lease: asks for it now rather than at the next renewal. */
  takeLeaseIfFree(): void {
    if (this.#upstream === undefined) void this.#leaseTick();
  }

  /** Takes the lease when it is free and keeps it while held, renewing it as often as the store needs. */
  async #leaseTick(): Promise<void> {
    if (this.#stopped || this.#leaseTicking) return;
    this.#leaseTicking = true;
    clearTimeout(this.#leaseTimer);
    // An entry of a hub that died expires by itself: each live one is renewed here.
    if (this.#subscribers.size > 0) this.#shareVisibility();
    // Only a hub with browser streams takes the lease: it needs one of their sessions' tokens.
    if (this.#upstream !== undefined || this.#subscribers.size > 0) {
      try {
        const held = await this.#store.acquireLease(this.travelerId);
        if (this.#stopped) {
          if (held) await this.#store.releaseLease(this.travelerId);
        } else {
          if (held && this.#upstream !== undefined) this.#counters.leaseRenewals += 1;
          if (held) this.#hold();
          else this.#letGo();
          await this.#upstream?.refreshState();
        }
      } catch (error) {
        // The store is unreachable: the lease cannot be kept, so another hub may hold it when it returns.
        if (this.#upstream) {
          this.#options.logger.warn({ err: error, travelerId: this.travelerId }, 'notification lease lost');
        }
        this.#letGo(false);
      }
    }
    this.#leaseTicking = false;
    const renewMs = this.#store.leaseRenewMs;
    if (this.#stopped || renewMs === undefined) return;
    this.#leaseTimer = setTimeout(() => void this.#leaseTick(), renewMs);
    this.#leaseTimer.unref();
  }

  #hold(): void {
    if (this.#upstream !== undefined) return;
    const credential = this.#subscribers.keys().next().value?.sessionId;
    if (credential === undefined) return;
    this.#options.logger.info({ travelerId: this.travelerId }, 'holding the notification upstream');
    bffMetrics().hubLeasesHeld.add(1);
    this.#upstream = new NotificationUpstreamReader(
      this.travelerId,
      credential,
      { ...this.#options, store: this.#store },
      this.#counters,
      (gone) => this.#hooks.endSession(gone, 'expired'),
    );
  }

  #letGo(release = true): void {
    const upstream = this.#upstream;
    if (upstream === undefined) return;
    this.#upstream = undefined;
    upstream.stop();
    bffMetrics().hubLeasesHeld.add(-1);
    // Let go while browsers here still listen: the lease went to another instance (or the store is away).
    if (!this.#stopped && this.#subscribers.size > 0) bffMetrics().hubLeasesMoved.add(1);
    if (release) this.#store.releaseLease(this.travelerId).catch(() => undefined);
  }
}

/** A notification written to this hub's browser streams: counted, with the time since it was created. */
function recordLiveDelivery(notification: Notification): void {
  const metrics = bffMetrics();
  metrics.notificationsDelivered.add('live');
  const lagMs = Date.now() - Date.parse(notification.createdAt);
  if (Number.isFinite(lagMs)) metrics.notificationLag.record(Math.max(0, lagMs) / 1000);
}
