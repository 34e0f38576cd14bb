import { createHash } from 'node:crypto';

/**
 * The RFC 8030 `Topic` of a notification's push message: at most 32 characters of the URL-safe base64
 * alphabet, the same for every repeat of the notification, so that the push service replaces a
 * message still waiting for delivery instead of stacking a second one.
 */
export function pushTopic(notificationId: string): string {
  return createHash('sha256').update(notificationId).digest('base64url').slice(0, 32);
}
