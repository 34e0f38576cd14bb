import { trace } from '@opentelemetry/api';
import { Agent, request } from 'undici';
import webPush from 'web-push';
import { inSpan } from '#shared/observability/trace-context.ts';
import { withoutCallTracing } from '#shared/observability/telemetry.ts';
import { BFF_SERVICE_NAME } from '../observability/bff-metrics.ts';
import type { PushEndpointPolicy } from './push-endpoint-policy.ts';
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
 * encrypt a message (a subscription saved before keys were checked), or its endpoint is no push service
 * the policy allows (saved before the policy, or its name now resolves to an address never contacted);
 * `failed`: anything else, maybe passing.
 */
export type WebPushResult =
  { kind: 'accepted' } | { kind: 'gone' } | { kind: 'unusable' } | { kind: 'failed'; status?: number };

export type WebPushSender = (
  subscription: StoredPushSubscription,
  message: WebPushMessage,
) => Promise<WebPushResult>;

/**
 * Encrypts (RFC 8291 aes128gcm) and signs (VAPID) with web-push, then sends with undici through an agent
 * whose connections resolve names with the endpoint policy's checked lookup: the endpoint is checked
 * again as it is sent, and the connection goes to the very address that passed (web-push's own sender
 * takes an agent too, but speaks https only, and the local push service stand-ins are plain http).
 */
export function createWebPushSender(input: {
  vapid: VapidKeys;
  subject: string;
  timeoutMs: number;
  policy: PushEndpointPolicy;
}): WebPushSender & { close: () => Promise<void> } {
  const dispatcher = new Agent({ connect: { lookup: input.policy.connectLookup }, keepAliveTimeout: 10_000 });
  const sender: WebPushSender = async (subscription, message) => {
    if (!input.policy.allowedUrl(subscription.endpoint)) return { kind: 'unusable' };
    let details: ReturnType<typeof webPush.generateRequestDetails>;
    try {
      details = webPush.generateRequestDetails(subscription, message.payload, {
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
    // The endpoint's path is the subscription's secret: the call's span names the push service's host
    // only, and the call itself is left out of the HTTP instrumentation (no URL in a span or a metric,
    // no trace context sent to a third party).
    const attributes = { 'server.address': new URL(details.endpoint).hostname };
    return inSpan(BFF_SERVICE_NAME, 'push send', { attributes }, () => send(details));
  };
  const send = async (details: ReturnType<typeof webPush.generateRequestDetails>): Promise<WebPushResult> => {
    try {
      // undici follows no redirect: a push service's answer is taken as it is.
      const response = await withoutCallTracing(() =>
        request(details.endpoint, {
          dispatcher,
          method: 'POST',
          headers: details.headers as Record<string, string>,
          body: details.body ?? undefined,
          signal: AbortSignal.timeout(input.timeoutMs),
        }),
      );
      await response.body.dump();
      const status = response.statusCode;
      trace.getActiveSpan()?.setAttribute('http.response.status_code', status);
      if (status === 404 || status === 410) return { kind: 'gone' };
      if (status >= 200 && status < 300) return { kind: 'accepted' };
      return { kind: 'failed', status };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPUSHADDRESS') return { kind: 'unusable' };
      return { kind: 'failed' };
    }
  };
  return Object.assign(sender, { close: () => dispatcher.close() });
}
