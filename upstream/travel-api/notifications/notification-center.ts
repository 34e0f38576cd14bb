import type { Notification } from '#shared/upstream/notifications.ts';
import type { NotificationFanOut, PublishResult } from './notification-fan-out.ts';
import type { NewNotification, NotificationInbox } from './notification-inbox.ts';
import type { PushWebhookSender } from './push-webhook-sender.ts';
import { inSpan } from '#shared/observability/trace-context.ts';

export type NotificationDraft = Omit<NewNotification, 'push'>;

export interface Dispatched {
  notification: Notification;
  live: PublishResult;
  pushed: boolean;
}

/**
 * Where every new notification goes through: persisted first, then sent live to the traveler's open
 * streams of this process, then on the push channel (even when a stream got it: the client decides).
 */
export class NotificationCenter {
  readonly inbox: NotificationInbox;
  readonly fanOut: NotificationFanOut;
  readonly #push: PushWebhookSender | undefined;

  constructor({
    inbox,
    fanOut,
    push,
  }: {
    inbox: NotificationInbox;
    fanOut: NotificationFanOut;
    push?: PushWebhookSender;
  }) {
    this.inbox = inbox;
    this.fanOut = fanOut;
    this.#push = push;
  }

  /**
   * In a span of its own (a child of the simulator's request, or a trace of its own for a timed demo
   * event): the stream event and the push webhook carry its context, so one trace shows every way the
   * notification went.
   */
  dispatch(draft: NotificationDraft, now = new Date()): Dispatched {
    const attributes = { 'wayfare.notification.event_type': draft.eventType };
    return inSpan('wayfare-travel-api', 'notification dispatch', { attributes }, () =>
      this.#dispatch(draft, now),
    );
  }

  #dispatch(draft: NotificationDraft, now: Date): Dispatched {
    const notification = this.inbox.create({ ...draft, push: this.#push !== undefined }, now);
    const live = this.fanOut.publish(draft.travelerId, notification);
    const pushed = this.#push !== undefined && notification.deliveryStatus === 'pending';
    if (pushed) {
      this.#push?.send({ type: 'notification.push', travelerId: draft.travelerId, notification });
    }
    return { notification, live, pushed };
  }
}
