import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PushDispatcher } from './push-dispatcher.ts';
import { PushEndpointPolicy } from './push-endpoint-policy.ts';
import type { PushSubscriptionStore } from './push-subscription-store.ts';
import { SqlitePushSubscriptionStore } from './push-subscription-store.sqlite.ts';
import { RedisPushSubscriptionStore } from './push-subscription-store.redis.ts';
import { loadVapidKeys, type VapidKeys } from './vapid-keys.ts';
import { createWebPushSender } from './web-push-sender.ts';

export interface Push {
  readonly vapidPublicKey: string;
  readonly subscriptions: PushSubscriptionStore;
  readonly dispatcher: PushDispatcher;
  /** Which endpoints are push services the BFF stores and sends to. */
  readonly endpointPolicy: PushEndpointPolicy;
}

/** Decorates `app.push`: VAPID keys, the traveler's subscriptions and the push-versus-SSE decision. */
function pushPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const vapid: VapidKeys = loadVapidKeys({
    publicKey: config.VAPID_PUBLIC_KEY,
    privateKey: config.VAPID_PRIVATE_KEY,
    dataDir: config.DATA_DIR,
  });
  const subscriptions: PushSubscriptionStore = app.redis
    ? new RedisPushSubscriptionStore(app.redis)
    : new SqlitePushSubscriptionStore(config.DATA_DIR);
  const endpointPolicy = new PushEndpointPolicy({
    origins: config.PUSH_ENDPOINT_ORIGINS,
    allowLoopback: config.PUSH_ENDPOINT_ALLOW_LOOPBACK,
  });
  const send = createWebPushSender({
    vapid,
    subject: config.VAPID_SUBJECT,
    timeoutMs: config.PUSH_SEND_TIMEOUT_MS,
    policy: endpointPolicy,
  });
  const dispatcher = new PushDispatcher({
    store: subscriptions,
    ledger: app.deliveryLedger,
    send,
    deliverLive: (travelerId, notification) => app.notificationHub.ingest(travelerId, notification),
    logger: app.log.child({ component: 'push' }),
    ttlSeconds: config.PUSH_TTL_SECONDS,
    decisionLeaseMs: config.PUSH_SEND_TIMEOUT_MS + 10_000,
  });
  app.decorate('push', {
    vapidPublicKey: vapid.publicKey,
    subscriptions,
    dispatcher,
    endpointPolicy,
  } satisfies Push);
  app.addHook('onClose', async () => {
    subscriptions.close();
    await send.close();
  });
  return Promise.resolve();
}

export default fp(pushPlugin, { name: 'push', fastify: '5.x', dependencies: ['notifications'] });

declare module 'fastify' {
  interface FastifyInstance {
    push: Push;
  }
}
