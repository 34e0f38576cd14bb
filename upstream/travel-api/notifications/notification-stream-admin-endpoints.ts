import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const EndNotificationStreamsRequestSchema = z.object({
  /** Only this traveler's streams; every open stream when left out. */
  travelerId: z.uuid().optional(),
});

export const EndedNotificationStreamsSchema = z.object({ ended: z.number().int().min(0) });

/**
 * `POST /admin/notification-streams/end`: ends open notification streams gracefully with the spec's
 * `done` event, as a server shutdown would, while the server keeps running (clients reconnect at once).
 */
function notificationStreamAdminEndpoints(
  instance: FastifyInstance,
  _options: unknown,
  done: () => void,
): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/admin/notification-streams/end',
    {
      schema: {
        body: EndNotificationStreamsRequestSchema.nullish(),
        response: { 200: EndedNotificationStreamsSchema },
      },
    },
    async (request) => ({
      ended: await app.notificationStreams.endWithDone(request.body?.travelerId),
    }),
  );
  done();
}

export default fp(notificationStreamAdminEndpoints, {
  name: 'notification-stream-admin-endpoints',
  dependencies: ['admin-gate', 'notification-endpoints'],
});
