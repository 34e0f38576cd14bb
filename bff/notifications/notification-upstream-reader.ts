import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { NotificationStreamState } from '#shared/api/notification-stream-events.ts';
import type { Notification } from '#shared/upstream/notifications.ts';
import { reconnectDelay } from '#shared/reconnect-delay.ts';
import { AppError } from '../errors.ts';
import { readSseBody } from '../streams/read-sse-body.ts';
import type { ConcurrencyGate } from './concurrency-gate.ts';
import { EVENT_ID, parseNotification, type NotificationStore } from './notification-store.ts';
import { activeTraceparent, inSpan } from '#shared/observability/trace-context.ts';
import { BFF_SERVICE_NAME, bffMetrics } from '../observability/bff-metrics.ts';

/** What the hub needs of the travel API. */
export interface NotificationUpstream {
  /**
   * The calls of one attempt (an open and the catch-up after it) on behalf of one of the traveler's
   * sessions: the session's token is read once for all of them, when first needed.
   */
  forSession(sessionId: string): NotificationUpstreamCalls;
}

export interface NotificationUpstreamCalls {
  /** Opens GET /v1/me/notifications/stream; resolves with the body once the upstream answered 200. */
  openStream(signal: AbortSignal): Promise<Readable>;
  /** One page of GET /v1/me/notifications, newest first. */
  listPage(
    before: string | undefined,
    signal: AbortSignal,
  ): Promise<{ items: Notification[]; nextCursor: string | null }>;
}

export interface NotificationHubCounters {
  upstreamConnects: number;
  upstreamDrops: number;
  caughtUp: number;
  duplicatesDropped: number;
  resyncs: number;
  /** Times a held lease was renewed (a fleet's hubs renew theirs a third of a lease apart). */
  leaseRenewals: number;
}

export interface NotificationUpstreamReaderOptions {
  store: NotificationStore;
  upstream: NotificationUpstream;
  logger: FastifyBaseLogger;
  reconnectBaseMs: number;
  reconnectCapMs: number;
  /** Silence (not even a heartbeat) after which an upstream stream counts as dead and is reopened. */
  upstreamIdleMs?: number | undefined;
  /** Catch-up pages read at most after a reconnect before the hub gives up and asks for a resync. */
  maxCatchUpPages: number;
  /** Passed through to open and catch up the stream: the hub's readers do so a few at a time. */
  reopenGate?: ConcurrencyGate | undefined;
}

/**
 * Why an attempt's calls are aborted once it is over: made once, since an abort without a reason makes a
 * DOMException (with its stack) each time, one per traveler when every stream reopens at once.
 */
const ATTEMPT_OVER = new DOMException('The upstream notification stream attempt is over', 'AbortError');

/**
 * The upstream notification stream of one traveler, kept by the hub that holds the traveler's lease:
 * open, catch up through the list from the store's checkpoint (the live stream is a lossy hint,
 * notification rule 3), read live, and reconnect with back-off, also after a silence longer than the
 * idle limit (a connection that died without a FIN). Every notification enters the store once.
 */
export class NotificationUpstreamReader {
  readonly #travelerId: string;
  readonly #options: NotificationUpstreamReaderOptions;
  readonly #store: NotificationStore;
  readonly #counters: NotificationHubCounters;
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
    options: NotificationUpstreamReaderOptions,
    counters: NotificationHubCounters,
    onCredentialGone: (sessionId: string) => void,
  ) {
    this.#travelerId = travelerId;
    this.#credential = credential;
    this.#options = options;
    this.#store = options.store;
    this.#counters = counters;
    this.#onCredentialGone = onCredentialGone;
    void this.#run();
  }

  get credential(): string {
    return this.#credential;
  }

  /** Reopens the stream with another session's token. */
  replaceCredential(sessionId: string): void {
    this.#credential = sessionId;
    this.#attempt?.abort();
  }

  stop(): void {
    this.#stop.abort();
  }

  /** Keeps the shared view of the upstream's state alive while this hub holds it. */
  async refreshState(): Promise<void> {
    await this.#store.setUpstreamState(this.#travelerId, this.#state);
  }

  async #setState(state: NotificationStreamState): Promise<void> {
    if (this.#state === state) return;
    this.#state = state;
    try {
      await this.refreshState();
      await this.#store.publish(this.#travelerId, { type: 'status', state });
    } catch (error) {
      this.#options.logger.warn({ err: error, travelerId: this.#travelerId }, 'upstream state not shared');
    }
  }

  async #run(): Promise<void> {
    const stopSignal = this.#stop.signal;
    let failures = 0;
    while (!stopSignal.aborted) {
      const attempt = new AbortController();
      this.#attempt = attempt;
      // Stopping the reader aborts the attempt: one signal per attempt, no AbortSignal.any composite
      // (and its weak references) kept alive for the hours an upstream stream lasts.
      const stopAttempt = () => attempt.abort(stopSignal.reason);
      stopSignal.addEventListener('abort', stopAttempt, { once: true });
      const signal = attempt.signal;
      let endedByDone = false;
      let held = false;
      try {
        const body = await this.#openAndCatchUp(attempt, () => {
          held = true;
        });
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
        if (held) bffMetrics().upstreamNotificationStreams.add(-1);
        stopSignal.removeEventListener('abort', stopAttempt);
        attempt.abort(ATTEMPT_OVER);
      }
      if (stopSignal.aborted) break;
      this.#counters.upstreamDrops += 1;
      await this.#setState('reconnecting');
      const delay = reconnectDelay(endedByDone ? 0 : failures, {
        baseMs: this.#options.reconnectBaseMs,
        capMs: this.#options.reconnectCapMs,
        retryHintMs: this.#retryHintMs,
      });
      await sleep(delay, stopSignal);
    }
  }

  /**
   * Opens the stream and catches up, holding a place of the hub's gate until the stream is live (or the
   * attempt fails); `opened` is told once the travel API has answered with the stream. Resolves with the
   * body to read live. What only the open and the catch-up need (the session's calls, the gate's place)
   * ends with this call, rather than being kept for the hours the stream is then read.
   */
  async #openAndCatchUp(attempt: AbortController, opened: () => void): Promise<Readable> {
    const { signal } = attempt;
    // Opening and catching up take a place of the hub's gate, given back once the stream is live.
    const leaveGate = await this.#options.reopenGate?.enter(signal);
    try {
      const calls = this.#options.upstream.forSession(this.#credential);
      const body = await calls.openStream(signal);
      opened();
      bffMetrics().upstreamNotificationStreams.add(1);
      // Until the live read takes the body over, an abort (during the catch-up) destroys it with an
      // error nobody would listen to, which would end the process: it ends the attempt instead.
      body.on('error', () => attempt.abort(ATTEMPT_OVER));
      this.#counters.upstreamConnects += 1;
      await this.#catchUp(calls, signal);
      await this.#setState('live');
      return body;
    } finally {
      leaveGate?.();
    }
  }

  /**
   * Reads the live stream until it ends; true when it ended with the upstream's `done`. Each
   * notification enters the store in arrival order (one after the other).
   */
  async #readLive(body: Readable, signal: AbortSignal): Promise<boolean> {
    let endedByDone = false;
    let admitting: Promise<unknown> = Promise.resolve();
    const { upstreamIdleMs } = this.#options;
    // A notification the store could not take (Redis failing over) ends the read: the chain of admits
    // stays failed, so every later one would be skipped while the stream went on. The read's error then
    // reopens the stream, and its catch-up brings back what the store missed, once.
    const reading = new AbortController();
    const stopReading = () => reading.abort(signal.reason);
    if (signal.aborted) stopReading();
    else signal.addEventListener('abort', stopReading, { once: true });
    // However the read ends, the notifications it started admitting are in (or failed) before this returns.
    await readSseBody(body, {
      signal: reading.signal,
      // The only guard against an upstream connection that died without a FIN: reopen after this silence.
      ...(upstreamIdleMs === undefined ? {} : { idleTimeoutMs: upstreamIdleMs }),
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
        const { traceparent } = message;
        admitting = admitting.then(() =>
          // A child of the travel API's dispatch: the stream event carried its trace context.
          inSpan(BFF_SERVICE_NAME, 'notification received', { traceparent }, () =>
            this.#admit(notification, 'publish', activeTraceparent()),
          ),
        );
        // Awaited when the read ends, which a failed admit brings about (and so is no unhandled rejection).
        admitting.catch(() => reading.abort());
        return true;
      },
    }).finally(() => {
      signal.removeEventListener('abort', stopReading);
      return admitting;
    });
    return endedByDone;
  }

  /** True when the notification was new. */
  async #admit(
    notification: Notification,
    mode: 'publish' | 'baseline',
    traceparent?: string,
  ): Promise<boolean> {
    if (!EVENT_ID.test(notification.id)) {
      this.#options.logger.warn({ travelerId: this.#travelerId }, 'notification with an unusable id skipped');
      return false;
    }
    const reached = await this.#store.admit(this.#travelerId, { notification, mode, ack: '', traceparent });
    if (reached === -1) {
      this.#counters.duplicatesDropped += 1;
      bffMetrics().notificationsDelivered.add('duplicate_dropped');
    }
    return reached !== -1;
  }

  /**
   * Pages the list back to the checkpoint (the newest id any holder saw at its last catch-up),
   * publishing what nobody published yet. Without a checkpoint (the traveler's first stream) it only
   * records what exists: the SPA lists those itself. It reads with the calls that opened the stream.
   */
  async #catchUp(calls: NotificationUpstreamCalls, signal: AbortSignal): Promise<void> {
    // '' records a baseline taken while the list was empty: everything listed later is new.
    const stored = await this.#store.readCheckpoint(this.#travelerId);
    const baselined = stored !== null;
    const checkpoint = stored === null || stored === '' ? undefined : stored;
    const collected: Notification[] = [];
    let before: string | undefined;
    let reachedCheckpoint = false;
    let exhausted = false;
    let head: string | undefined;
    for (let page = 0; page < this.#options.maxCatchUpPages; page += 1) {
      const { items, nextCursor } = await calls.listPage(before, signal);
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
    const metrics = bffMetrics();
    metrics.catchUpRuns.add(1);
    for (const item of collected) {
      const fresh = await this.#admit(item, baselined ? 'publish' : 'baseline');
      if (fresh && baselined) {
        this.#counters.caughtUp += 1;
        metrics.catchUpItems.add(1);
      }
    }
    // Pages missing before the checkpoint, or a new baseline (the store lost the traveler's state, e.g.
    // Redis restarted without persistence): browsers that were already reading refetch their inbox.
    if (!baselined || (!reachedCheckpoint && !exhausted)) {
      this.#counters.resyncs += 1;
      await this.#store.publish(this.#travelerId, { type: 'resync', reason: 'gap' });
    }
    if (head !== undefined || !baselined) await this.#store.writeCheckpoint(this.#travelerId, head ?? '');
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
