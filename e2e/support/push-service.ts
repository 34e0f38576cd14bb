import { createECDH, randomBytes } from 'node:crypto';
import type { BrowserContext } from '@playwright/test';
import { STACK } from './stack.ts';

interface SubscriptionJson {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface BrowserPushService {
  /** The browser's current push subscription, as its push service holds it (null when none). */
  current(): SubscriptionJson | null;
  /** Every endpoint the browser was given, oldest first. */
  readonly issued: string[];
}

/**
 * Headless Chromium has no push service (PushManager.subscribe is refused), so the journeys give the
 * browser a stand-in: PushManager's getSubscription and subscribe answer from here, with endpoints on the
 * stack's push service origin (allowed by the e2e stack's BFF, e2e/support/start-stack.ts) and real P-256
 * keys, and unsubscribe ends the subscription here, as a push service would.
 */
export async function installBrowserPushService(context: BrowserContext): Promise<BrowserPushService> {
  let current: SubscriptionJson | null = null;
  const issued: string[] = [];
  await context.exposeBinding('wayfarePushService', (_source, action: string) => {
    if (action === 'subscribe') {
      const id = randomBytes(12).toString('base64url');
      current = {
        endpoint: `http://127.0.0.1:${STACK.pushServicePort}/push/${id}`,
        expirationTime: null,
        keys: {
          p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      };
      issued.push(current.endpoint);
    }
    if (action === 'unsubscribe') {
      const had = current !== null;
      current = null;
      return had;
    }
    return current;
  });
  await context.addInitScript(() => {
    type Json = { endpoint: string } | null;
    const call = (action: string) =>
      (window as unknown as { wayfarePushService: (action: string) => Promise<unknown> }).wayfarePushService(
        action,
      );
    const wrap = (json: Json) =>
      json && {
        endpoint: json.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => json,
        unsubscribe: () => call('unsubscribe'),
      };
    PushManager.prototype.getSubscription = async function getSubscription() {
      return wrap((await call('get')) as Json) as unknown as PushSubscription | null;
    };
    PushManager.prototype.subscribe = async function subscribe() {
      return wrap((await call('subscribe')) as Json) as unknown as PushSubscription;
    };
  });
  return { current: () => current, issued };
}
