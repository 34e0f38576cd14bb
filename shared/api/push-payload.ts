import type { NotificationFacts } from '../upstream/notifications.ts';

/**
 * What the service worker receives, encrypted, in a Web Push message (sent by bff/push/push-dispatcher.ts,
 * read by web/service-worker/push-alerts.js). The worker writes the system notification in the traveler's
 * language from `eventType` and `facts`, as the app writes its inbox and toasts; `title` and `body` are the
 * travel API's English, shown only when the facts are missing or of a kind the app does not know. Nothing
 * in it is a secret: no token, no session id.
 */
export interface PushPayload {
  notificationId: string;
  /** The travel API's title, in English. */
  title: string;
  /** The travel API's body, in English. */
  body: string;
  /** The Notification `tag`: the notification id, so a repeat replaces instead of stacking. */
  tag: string;
  /** The in-app path the notification opens. */
  url: string;
  severity: string;
  /** The kind of event (SEGMENT_DELAYED, BOOKING_CONFIRMED, ...). */
  eventType?: string;
  /** The event as values, as the travel API gave them; absent when it gave none or they would not fit. */
  facts?: NotificationFacts;
  /** The locale of the traveler's profile, as the session that subscribed last read it (`es-ES`). */
  locale?: string;
}

/**
 * The largest payload, in bytes of its JSON, that every push service takes: RFC 8030 push services accept
 * 4,096 bytes of message, of which aes128gcm (RFC 8188, one record, the 65-byte key id of RFC 8291) takes
 * 86 for its header, 16 for the tag and 1 for the padding delimiter.
 */
export const PUSH_PAYLOAD_MAX_BYTES = 4096 - 86 - 16 - 1;
