import type { FastifyBaseLogger } from 'fastify';
import type { Notification } from '#shared/upstream/notifications.ts';
import { deepLinkPath } from './deep-link-path.ts';
import type { DeliveryLedger } from './delivery-ledger.ts';
import { PUSH_OUTCOMES, pushDecision, type PushOutcome } from './push-decision.ts';
import { pushTopic } from './push-topic.ts';
import type { PushSubscriptionStore } from './push-subscription-store.ts';
import type { WebPushSender } from './web-push-sender.ts';

/** What the service worker receives, encrypted, in the push message. */
export interface PushPayload {
  notificationId: string;
  title: string;
  body: string;
  /** The Notification `tag`: the notification id, so a repeat replaces instead of stacking. */
  tag: string;
  /** The in-app path the notification opens. */
  url: string;
  severity: string;
}

export interface PushDispatcherOptions {
  store: PushSubscriptionStore;
  ledger: DeliveryLedger;
  send: WebPushSender;
  /** Hands the notification to the hub first, so the traveler's open streams get it now. */
  deliverLive: (travelerId: string, notification: Notification) => void | Promise<void>;
  logger: FastifyBaseLogger;
  ttlSeconds: number;
  /** Decisions remembered for repeats of the push channel. */
  decidedCapacity: number;
}

export class PushDispatcher {
  readonly #options: PushDispatcherOptions;
  readonly #decisions = new Map<string, Promise<PushOutcome>>();
  readonly #counts = Object.fromEntries(PUSH_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
    PushOutcome,
    number
  >;
  #subscriptionsRemoved = 0;

  constructor(options: PushDispatcherOptions) {
    this.#options = options;
  }

  /** Decides once per (traveler, notification) whether a Web Push is sent, and sends it. */
  async dispatch(travelerId: string, notification: Notification): Promise<PushOutcome> {
    const key = `${travelerId}\n${notification.id}`;
    const earlier = this.#decisions.get(key);
    if (earlier !== undefined) {
      const outcome = await earlier.catch(() => undefined);
      if (outcome !== undefined && outcome !== 'failed')
        return this.#record(travelerId, notification, 'duplicate');
    }
    const decision = this.#decide(travelerId, notification);
    this.#decisions.set(key, decision);
    if (this.#decisions.size > this.#options.decidedCapacity) {
      const oldest = this.#decisions.keys().next();
      if (!oldest.done) this.#decisions.delete(oldest.value);
    }
    const outcome = await decision;
    return this.#record(travelerId, notification, outcome);
  }

  stats(): Record<PushOutcome, number> & { subscriptionsRemoved: number } {
    return { ...this.#counts, subscriptionsRemoved: this.#subscriptionsRemoved };
  }

  async #decide(travelerId: string, notification: Notification): Promise<PushOutcome> {
    await this.#options.deliverLive(travelerId, notification);
    const shownLive = await this.#options.ledger.wasShownLive(travelerId, notification.id);
    const subscriptions = shownLive ? [] : await this.#options.store.list(travelerId);
    const facts = { shownLive, subscriptions: subscriptions.length };
    const decision = pushDecision(facts);
    if (decision !== 'send') return decision;
    const payload: PushPayload = {
      notificationId: notification.id,
      title: notification.title,
      body: notification.body,
      tag: notification.id,
      url: deepLinkPath(notification.deepLink),
      severity: notification.severity,
    };
    const message = {
      payload: JSON.stringify(payload),
      topic: pushTopic(notification.id),
      ttlSeconds: this.#options.ttlSeconds,
      urgency: notification.severity === 'critical' ? ('high' as const) : ('normal' as const),
    };
    const results = await Promise.all(
      subscriptions.map(async (subscription) => ({
        subscription,
        result: await this.#options.send(subscription, message),
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

  #record(travelerId: string, notification: Notification, outcome: PushOutcome): PushOutcome {
    this.#counts[outcome] += 1;
    this.#options.logger.info(
      { travelerId, notificationId: notification.id, outcome },
      `push decision: ${outcome}`,
    );
    return outcome;
  }
}
