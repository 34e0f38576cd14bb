import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SegmentDetailsSchema, SegmentParamsSchema } from '../../../shared/upstream/trips.ts';
import { travelerAuth } from '../../upstream/traveler-auth.ts';
import { upstreamContext } from '../../upstream/upstream-context.ts';
import { withErrorResponses } from './error-responses.ts';

/** GET /api/trips/:tripId/segments/:segmentId: a segment with its live status, and its trip. */
export default function tripSegmentRoute(app: FastifyInstance, _options: unknown, done: () => void): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/trips/:tripId/segments/:segmentId',
    {
      preHandler: app.requireSession,
      schema: {
        tags: ['trips'],
        summary: 'A trip segment with scheduled and estimated times',
        params: SegmentParamsSchema,
        response: withErrorResponses({ 200: SegmentDetailsSchema }),
      },
    },
    async (request, reply) => {
      const { tripId, segmentId } = request.params;
      return app.travelApi.request({
        method: 'GET',
        path: `/v1/trips/${encodeURIComponent(tripId)}/segments/${encodeURIComponent(segmentId)}`,
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: SegmentDetailsSchema,
      });
    },
  );
  done();
}
