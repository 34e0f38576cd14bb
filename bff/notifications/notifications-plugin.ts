import { randomUUID } from 'node:crypto';
import type { ObservableResult } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { NotificationsPageSchema } from '#shared/upstream/notifications.ts';
import type { DeliveryLedger } from '../push/delivery-ledger.ts';
import { MemoryDeliveryLedger } from '../push/delivery-ledger.memory.ts';
import { bffMetrics } from '../observability/bff-metrics.ts';
import type { UpstreamAuth } from '../travel-api/travel-api.ts';
import { sessionKeys } from '../sessions/session-store.redis.ts';
import { RedisDeliveryLedger } from '../push/delivery-ledger.redis.ts';
import { ConcurrencyGate } from './concurrency-gate.ts';
import { NotificationHub, type NotificationUpstream } from './notification-hub.ts';
import type { NotificationStoreLimits } from './notification-store.ts';
import { MemoryNotificationStore } from './notification-store.memory.ts';
import { RedisNotificationStore } from './notification-store.redis.ts';

const OPENING = { state: 'opening' };
const WAITING = { state: 'waiting' };

/** Newest-first page size of the hub's catch-up reads. */
const CATCH_UP_PAGE_SIZE = 100;

/**
 * Decorates `app.notificationHub` (one upstream stream per traveler, fanned out) and
 * `app.deliveryLedger` (what was shown live, for the push decision). Session ends close the
 * session's browser streams with `session-ended`.
 */
async function notificationsPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const upstream: NotificationUpstream = {
    forSession(sessionId) {
      // The open and its catch-up read the session (from the store, decrypted) once between them: a
      // travel API restart reopens every traveler's stream at once.
      let auth: Promise<UpstreamAuth> | undefined;
      const bearer = () =>
        (auth ??= app.auth.accessTokenForSession(sessionId).then((token) => ({ kind: 'bearer', token })));
      return {
        async openStream(signal) {
          return app.travelApi.request({
            method: 'GET',
            path: '/v1/me/notifications/stream',
            auth: await bearer(),
            requestId: randomUUID(),
            signal,
            stream: true,
            retry: 'none',
          });
        },
        async listPage(before, signal) {
          const page = await app.travelApi.request({
            method: 'GET',
            path: '/v1/me/notifications',
            query: { before, limit: CATCH_UP_PAGE_SIZE },
            auth: await bearer(),
            requestId: randomUUID(),
            signal,
            schema: NotificationsPageSchema,
          });
          return { items: page.items, nextCursor: page.meta.nextCursor };
        },
      };
    },
  };

  const ledger: DeliveryLedger = app.redis
    ? new RedisDeliveryLedger(app.redis, {
        idsPerTraveler: 1000,
        ttlMs: 7 * 24 * 60 * 60 * 1000,
        pushDecisionTtlMs: 24 * 60 * 60 * 1000,
      })
    : new MemoryDeliveryLedger({ idsPerTraveler: 1000, travelers: 100_000, pushDecisions: 50_000 });
  const { redis } = app;
  const logger = app.log.child({ component: 'notification-hub' });
  // Streams reopen a few at a time (a travel API restart, a fleet's takeover): how many are opening and
  // how many wait is what an operator watches while a herd is worked through.
  const reopenGate = new ConcurrencyGate(config.NOTIFICATION_REOPEN_CONCURRENCY, {
    turnMs: config.NOTIFICATION_REOPEN_TURN_MS,
  });
  const reopening = bffMetrics().upstreamNotificationStreamsReopening;
  const observeReopening = (result: ObservableResult) => {
    result.observe(reopenGate.held, OPENING);
    result.observe(reopenGate.waiting, WAITING);
  };
  reopening.addCallback(observeReopening);
  const hub = new NotificationHub({
    // Several instances on one Redis: one upstream stream per traveler across all of them.
    store: redis
      ? (limits: NotificationStoreLimits) =>
          new RedisNotificationStore({
            ...limits,
            redis,
            logger,
            leaseMs: config.NOTIFICATION_LEASE_MS,
            sessionExists: async (sessionId) =>
              (await redis.client.exists(...sessionKeys(redis, sessionId))) > 0,
          })
      : (limits: NotificationStoreLimits) => new MemoryNotificationStore(limits),
    upstream,
    logger,
    lingerMs: config.NOTIFICATION_HUB_LINGER_MS,
    reconnectBaseMs: config.NOTIFICATION_RECONNECT_BASE_MS,
    reconnectCapMs: config.NOTIFICATION_RECONNECT_CAP_MS,
    upstreamIdleMs: config.NOTIFICATION_UPSTREAM_IDLE_MS,
    reopenGate,
    ackTimeoutMs: config.NOTIFICATION_SHOWN_WAIT_MS,
    dedupeCapacity: 2000,
    resumeCapacity: 200,
    maxCatchUpPages: 10,
    onShownLive: (travelerId, notificationId) => ledger.recordShownLive(travelerId, notificationId),
  });
  const stopListening = app.sessions.onEnd(({ sessionId, reason }) => hub.endSession(sessionId, reason));

  app.decorate('notificationHub', hub);
  app.decorate('deliveryLedger', ledger);
  app.addHook('preClose', (done) => {
    reopening.removeCallback(observeReopening);
    stopListening();
    hub.close();
    done();
  });
}

export default fp(notificationsPlugin, {
  name: 'notifications',
  fastify: '5.x',
  dependencies: ['session', 'auth', 'travel-api', 'sse'],
  decorators: { fastify: ['config', 'redis', 'sessions', 'auth', 'travelApi', 'sse'] },
});

declare module 'fastify' {
  interface FastifyInstance {
    notificationHub: NotificationHub;
    deliveryLedger: DeliveryLedger;
  }
}
