import webPush from 'web-push';
import type { VapidKeys } from './vapid-keys.ts';
import type { StoredPushSubscription } from './push-subscription-store.ts';

export interface WebPushMessage {
  payload: string;
  /** RFC 8030 Topic: a repeat replaces a message the push service still holds. */
  topic: string;
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
}

/**
 * `gone`: the push service says the subscription no longer exists (404/410); `unusable`: its keys cannot
 * encrypt a message (a subscription saved before keys were checked); `failed`: anything else, maybe passing.
 */
export type WebPushResult =
  { kind: 'accepted' } | { kind: 'gone' } | { kind: 'unusable' } | { kind: 'failed'; status?: number };

export type WebPushSender = (
  subscription: StoredPushSubscription,
  message: WebPushMessage,
) => Promise<WebPushResult>;

/**
 * Encrypts (RFC 8291 aes128gcm) and signs (VAPID) with web-push, then sends with fetch, which also
 * reaches plain-http push endpoints on loopback in development and tests.
 */
export function createWebPushSender(input: {
  vapid: VapidKeys;
  subject: string;
  timeoutMs: number;
}): WebPushSender {
  return async (subscription, message) => {
    let request: ReturnType<typeof webPush.generateRequestDetails>;
    try {
      request = webPush.generateRequestDetails(subscription, message.payload, {
        vapidDetails: {
          subject: input.subject,
          publicKey: input.vapid.publicKey,
          privateKey: input.vapid.privateKey,
        },
        TTL: message.ttlSeconds,
        urgency: message.urgency,
        topic: message.topic,
        contentEncoding: 'aes128gcm',
      });
    } catch {
      return { kind: 'unusable' };
    }
    try {
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body === null ? null : new Uint8Array(request.body),
        signal: AbortSignal.timeout(input.timeoutMs),
        redirect: 'error',
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) return { kind: 'gone' };
      if (response.ok) return { kind: 'accepted' };
      return { kind: 'failed', status: response.status };
    } catch {
      return { kind: 'failed' };
    }
  };
}
