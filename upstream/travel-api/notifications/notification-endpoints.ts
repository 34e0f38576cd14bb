import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { plainText } from '#shared/plain-text.ts';
import {
  NotificationSchema,
  NotificationsPageSchema,
  NotificationsQuerySchema,
  NotificationsReadAllSchema,
} from '#shared/upstream/notifications.ts';
import { ServiceError } from '../service-error.ts';
import { shuttingDownError } from '../plugins/service-error-handler.ts';
import { SseWriter } from '../sse/sse-writer.ts';
import { NotificationCenter } from './notification-center.ts';
import { NotificationFanOut } from './notification-fan-out.ts';
import { NotificationInbox } from './notification-inbox.ts';
import { NotificationStreams } from './notification-streams.ts';
import { PushWebhookSender } from './push-webhook-sender.ts';
import { activeTraceparent } from '#shared/observability/trace-context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: NotificationCenter;
    notificationStreams: NotificationStreams;
  }
}

const NotificationParamsSchema = z.object({ id: plainText().min(1).max(100) });

/**
 * Notifications: the list (cursor `before`, newest first), marking read (additive), and the live stream
 * with in-process fan-out, `retry:` at open, heartbeats, and `done` when the server closes.
 */
function notificationEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const config = app.travelConfig;
  const inbox = new NotificationInbox(app.db, {
    appScheme: config.TRAVEL_API_APP_SCHEME,
    dedupWindowSeconds: config.TRAVEL_API_NOTIFICATION_DEDUP_SECONDS,
  });
  const fanOut = new NotificationFanOut({ gapShare: () => app.faults.current.multiWorkerGapShare });
  const push =
    config.TRAVEL_API_PUSH_WEBHOOK_URL === undefined
      ? undefined
      : new PushWebhookSender({
          url: config.TRAVEL_API_PUSH_WEBHOOK_URL,
          secret: config.TRAVEL_API_PUSH_WEBHOOK_SECRET,
          maxAttempts: config.TRAVEL_API_PUSH_MAX_ATTEMPTS,
          logger: app.log.child({ component: 'push-webhook' }),
          onSettled: (id, outcome) => inbox.setDeliveryStatus(id, outcome),
        });
  app.decorate('notifications', new NotificationCenter({ inbox, fanOut, push }));

  const streams = new NotificationStreams();
  app.decorate('notificationStreams', streams);
  app.addHook('preClose', async () => {
    await streams.endWithDone();
  });
  app.addHook('onClose', async () => {
    await push?.close();
  });

  app.get(
    '/v1/me/notifications',
    {
      preParsing: app.requireTraveler,
      schema: { querystring: NotificationsQuerySchema, response: { 200: NotificationsPageSchema } },
    },
    (request) => inbox.list(request.travelerId, request.query),
  );

  app.post(
    '/v1/me/notifications/read-all',
    { preParsing: app.requireTraveler, schema: { response: { 200: NotificationsReadAllSchema } } },
    (request) => ({ updatedCount: inbox.markAllRead(request.travelerId) }),
  );

  app.post(
    '/v1/me/notifications/:id/read',
    {
      preParsing: app.requireTraveler,
      schema: { params: NotificationParamsSchema, response: { 200: NotificationSchema } },
    },
    (request) => {
      const notification = inbox.markRead(request.travelerId, request.params.id);
      if (!notification) {
        throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'No such notification for this traveler' });
      }
      return notification;
    },
  );

  app.get('/v1/me/notifications/stream', { preParsing: app.requireTraveler }, (request, reply) => {
    const traveler = request.travelerId;
    // The streams open when closing began get `done` (preClose above); none opens after it.
    if (app.shuttingDown) throw shuttingDownError();
    if (app.faults.current.startupInProgress) {
      throw new ServiceError('SERVICE_UNAVAILABLE', {
        message: 'The notification service is starting; retry shortly',
        retryAfterSeconds: 2,
      });
    }
    const stream = SseWriter.open(reply, {
      faults: app.faults,
      retryMs: config.TRAVEL_API_SSE_RETRY_MS,
      heartbeatMs: config.TRAVEL_API_SSE_HEARTBEAT_SECONDS * 1000,
    });
    if (!stream.open) return;
    streams.add(traveler, stream);
    const unsubscribe = fanOut.subscribe(traveler, (notification) => {
      // Called while the notification is dispatched: the event carries the dispatch's trace context.
      const traceparent = activeTraceparent();
      void stream.send({
        event: 'notification',
        id: notification.id,
        data: notification,
        ...(traceparent === undefined ? {} : { traceparent }),
      });
    });
    stream.signal.addEventListener('abort', unsubscribe, { once: true });
  });
  done();
}

export default fp(notificationEndpoints, {
  name: 'notification-endpoints',
  dependencies: ['db', 'service-error-handler', 'faults', 'bearer-auth'],
});
