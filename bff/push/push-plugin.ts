import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PushDispatcher } from './push-dispatcher.ts';
import { PushEndpointPolicy } from './push-endpoint-policy.ts';
import { pushSessionRef, type PushSubscriptionStore } from './push-subscription-store.ts';
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

/**
 * Decorates `app.push`: VAPID keys, the traveler's subscriptions and the push-versus-SSE decision. A
 * subscription lives as long as the session that made it: every end of a session (sign-out, back-channel
 * logout, idle or absolute expiry, a failed refresh) removes its subscriptions, and a message is only ever
 * sent to subscriptions of a session that is still live.
 */
async function pushPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const vapid: VapidKeys = loadVapidKeys({
    publicKey: config.VAPID_PUBLIC_KEY,
    privateKey: config.VAPID_PRIVATE_KEY,
    dataDir: config.DATA_DIR,
  });
  const subscriptions: PushSubscriptionStore = app.redis
    ? new RedisPushSubscriptionStore(app.redis, config.SESSION_ABSOLUTE_LIFETIME_SECONDS * 1000)
    : new SqlitePushSubscriptionStore(config.DATA_DIR);
  const stopListening = app.sessions.onEnd(async ({ sessionId, travelerId, reason }) => {
    const removed = await subscriptions.removeSession(pushSessionRef(sessionId));
    if (removed > 0)
      app.log.info({ travelerId, reason, removed }, 'push subscriptions of an ended session removed');
  });
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
    liveSessions: async (travelerId) => {
      const live = new Map<string, { locale?: string | undefined }>();
      for (const { id } of await app.sessions.store.findBySubject(travelerId)) {
        const session = await app.sessions.load(id);
        if (session) live.set(pushSessionRef(id), { locale: session.locale });
      }
      return live;
    },
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
    stopListening();
    subscriptions.close();
    await send.close();
  });
}

export default fp(pushPlugin, {
  name: 'push',
  fastify: '5.x',
  dependencies: ['session', 'notifications'],
  decorators: { fastify: ['config', 'redis', 'sessions', 'notificationHub', 'deliveryLedger'] },
});

declare module 'fastify' {
  interface FastifyInstance {
    push: Push;
  }
}
