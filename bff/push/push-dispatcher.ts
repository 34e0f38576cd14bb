import type { FastifyBaseLogger } from 'fastify';
import type { Notification } from '#shared/upstream/notifications.ts';
import type { DeliveryLedger } from './delivery-ledger.ts';
import { PUSH_OUTCOMES, pushDecision, type PushOutcome } from './push-decision.ts';
import { pushPayloadJson } from './push-payload.ts';
import { pushTopic } from './push-topic.ts';
import type { PushSubscriptionStore, StoredPushSubscription } from './push-subscription-store.ts';
import type { WebPushSender } from './web-push-sender.ts';
import { trace } from '@opentelemetry/api';
import { inSpan } from '#shared/observability/trace-context.ts';
import { BFF_SERVICE_NAME, bffMetrics } from '../observability/bff-metrics.ts';

export interface PushDispatcherOptions {
  store: PushSubscriptionStore;
  ledger: DeliveryLedger;
  send: WebPushSender;
  /**
   * The traveler's sessions that are still live, by pushSessionRef of each id, with the locale of the
   * profile as each last read it: only their subscriptions are sent to, each in its session's language,
   * and any other is removed (its session ended without its end being heard).
   */
  liveSessions: (travelerId: string) => Promise<ReadonlyMap<string, { locale?: string | undefined }>>;
  /** Hands the notification to the hub first, so the traveler's open streams get it now. */
  deliverLive: (travelerId: string, notification: Notification) => void | Promise<void>;
  logger: FastifyBaseLogger;
  ttlSeconds: number;
  /**
   * How long a decision under way holds its claim: past the push services' own timeout, so that only a
   * decision cut short (a crash) lets a retry decide again.
   */
  decisionLeaseMs: number;
}

export class PushDispatcher {
  readonly #options: PushDispatcherOptions;
  readonly #counts = Object.fromEntries(PUSH_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
    PushOutcome,
    number
  >;
  #subscriptionsRemoved = 0;

  constructor(options: PushDispatcherOptions) {
    this.#options = options;
  }

  /**
   * Decides once per (traveler, notification) whether a Web Push is sent, and sends it. The claim on the
   * decision is in the delivery ledger, so a repeat of the push channel is a `duplicate` on whichever
   * instance it reaches; a decision that sent nothing (`failed`) is released for the retry to take again.
   */
  dispatch(travelerId: string, notification: Notification): Promise<PushOutcome> {
    // In the trace of the webhook call, which continues the travel API's dispatch of the notification.
    return inSpan(BFF_SERVICE_NAME, 'push decision', {}, () => this.#dispatch(travelerId, notification));
  }

  async #dispatch(travelerId: string, notification: Notification): Promise<PushOutcome> {
    const { ledger } = this.#options;
    const claim = await ledger.claimPushDecision(travelerId, notification.id, this.#options.decisionLeaseMs);
    if (claim.state === 'decided') return this.#record(travelerId, notification, 'duplicate');
    if (claim.state === 'deciding') return this.#record(travelerId, notification, 'deciding');
    let outcome: PushOutcome;
    try {
      outcome = await this.#decide(travelerId, notification);
    } catch (error) {
      await this.#settle(travelerId, notification, claim.token, 'released');
      throw error;
    }
    await this.#settle(travelerId, notification, claim.token, outcome === 'failed' ? 'released' : 'decided');
    return this.#record(travelerId, notification, outcome);
  }

  stats(): Record<PushOutcome, number> & { subscriptionsRemoved: number } {
    return { ...this.#counts, subscriptionsRemoved: this.#subscriptionsRemoved };
  }

  async #decide(travelerId: string, notification: Notification): Promise<PushOutcome> {
    await this.#options.deliverLive(travelerId, notification);
    const shownLive = await this.#options.ledger.wasShownLive(travelerId, notification.id);
    const subscriptions = shownLive ? [] : await this.#subscriptionsOfLiveSessions(travelerId);
    const facts = { shownLive, subscriptions: subscriptions.length };
    const decision = pushDecision(facts);
    if (decision !== 'send') return decision;
    const message = (locale: string | undefined) => ({
      payload: pushPayloadJson(notification, locale),
      topic: pushTopic(notification.id),
      ttlSeconds: this.#options.ttlSeconds,
      urgency: notification.severity === 'critical' ? ('high' as const) : ('normal' as const),
    });
    const results = await Promise.all(
      subscriptions.map(async ({ subscription, locale }) => ({
        subscription,
        result: await this.#options.send(subscription, message(locale)),
      })),
    );
    for (const { subscription, result } of results) {
      if (result.kind === 'gone' || result.kind === 'unusable') {
        await this.#options.store.removeEndpoint(subscription.endpoint);
        this.#subscriptionsRemoved += 1;
        this.#options.logger.info({ travelerId, reason: result.kind }, 'push subscription removed');
      }
      if (result.kind === 'failed') {
        this.#options.logger.warn({ travelerId, status: result.status }, 'push service refused a message');
      }
    }
    return pushDecision({ ...facts, results: results.map(({ result }) => result.kind) });
  }

  /** The subscriptions of the traveler's live sessions, each with the locale its session knows. */
  async #subscriptionsOfLiveSessions(
    travelerId: string,
  ): Promise<{ subscription: StoredPushSubscription; locale: string | undefined }[]> {
    const { store } = this.#options;
    const stored = await store.list(travelerId);
    if (stored.length === 0) return [];
    const live = await this.#options.liveSessions(travelerId);
    const kept: { subscription: StoredPushSubscription; locale: string | undefined }[] = [];
    for (const subscription of stored) {
      const { sessionRef } = subscription;
      const session = sessionRef === undefined ? undefined : live.get(sessionRef);
      if (session) {
        kept.push({ subscription, locale: session.locale });
        continue;
      }
      if (sessionRef === undefined) await store.removeEndpoint(subscription.endpoint);
      else await store.removeSession(sessionRef);
      this.#subscriptionsRemoved += 1;
      this.#options.logger.info({ travelerId, reason: 'session-ended' }, 'push subscription removed');
    }
    return kept;
  }

  /**
   * A settlement that cannot be written (Redis away) leaves the claim to lapse: the outcome still stands
   * for this attempt, and a retry after the lease decides again.
   */
  async #settle(
    travelerId: string,
    notification: Notification,
    token: string,
    settlement: 'decided' | 'released',
  ): Promise<void> {
    try {
      await this.#options.ledger.settlePushDecision(travelerId, notification.id, token, settlement);
    } catch {
      this.#options.logger.warn(
        { travelerId, notificationId: notification.id, settlement },
        'push decision not recorded; its claim lapses',
      );
    }
  }

  #record(travelerId: string, notification: Notification, outcome: PushOutcome): PushOutcome {
    this.#counts[outcome] += 1;
    const metrics = bffMetrics();
    metrics.pushDecisions.add(outcome);
    trace.getActiveSpan()?.setAttribute('wayfare.push.outcome', outcome);
    if (outcome === 'sent') metrics.notificationsDelivered.add('push');
    if (outcome === 'suppressed-live') metrics.notificationsDelivered.add('suppressed');
    this.#options.logger.info(
      { travelerId, notificationId: notification.id, outcome },
      `push decision: ${outcome}`,
    );
    return outcome;
  }
}
