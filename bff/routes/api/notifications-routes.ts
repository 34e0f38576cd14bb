import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NotificationParamsSchema } from '#shared/api/notification-params.ts';
import {
  NotificationSchema,
  NotificationsReadAllSchema,
  NotificationsPageSchema,
  NotificationsQuerySchema,
} from '#shared/upstream/notifications.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { withErrorResponses } from './error-responses.ts';

/**
 * GET /api/notifications (the inbox, newest first, cursor `before`), POST /api/notifications/:id/read and
 * POST /api/notifications/read-all.
 */
export default function notificationsRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: 'A page of the traveler’s notifications, newest first',
        querystring: NotificationsQuerySchema,
        response: withErrorResponses({ 200: NotificationsPageSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'GET',
        path: '/v1/me/notifications',
        query: request.query,
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: NotificationsPageSchema,
      }),
  );

  routes.post(
    '/api/notifications/:id/read',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark one notification read (idempotent)',
        params: NotificationParamsSchema,
        response: withErrorResponses({ 200: NotificationSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'POST',
        path: `/v1/me/notifications/${encodeURIComponent(request.params.id)}/read`,
        auth: await travelerAuth(app, request),
        retry: 'idempotent',
        ...upstreamContext(request, reply),
        schema: NotificationSchema,
      }),
  );

  routes.post(
    '/api/notifications/read-all',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark every notification read (idempotent): how many changed',
        response: withErrorResponses({ 200: NotificationsReadAllSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'POST',
        path: '/v1/me/notifications/read-all',
        auth: await travelerAuth(app, request),
        retry: 'idempotent',
        ...upstreamContext(request, reply),
        schema: NotificationsReadAllSchema,
      }),
  );
  done();
}
