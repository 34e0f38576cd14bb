import type { Notification } from '#shared/upstream/notifications.ts';
import { PUSH_PAYLOAD_MAX_BYTES, type PushPayload } from '#shared/api/push-payload.ts';
import { deepLinkPath } from './deep-link-path.ts';

/**
 * The push message of a notification for a traveler whose profile is in `locale`, as JSON: the event's
 * kind and facts, from which the service worker writes the notification in the traveler's language, with
 * the travel API's English beside them for a worker that cannot. Facts that would not fit a push message
 * are left out (the worker then shows the English); nothing but the notification and the locale goes in.
 */
export function pushPayloadJson(notification: Notification, locale: string | undefined): string {
  const payload: PushPayload = {
    notificationId: notification.id,
    title: notification.title,
    body: notification.body,
    tag: notification.id,
    url: deepLinkPath(notification.deepLink),
    severity: notification.severity,
    eventType: notification.eventType,
    ...(locale === undefined ? {} : { locale }),
  };
  if (notification.facts) {
    const withFacts = JSON.stringify({ ...payload, facts: notification.facts });
    if (Buffer.byteLength(withFacts) <= PUSH_PAYLOAD_MAX_BYTES) return withFacts;
  }
  return JSON.stringify(payload);
}
