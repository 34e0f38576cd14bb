import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SegmentDetailsSchema, SegmentParamsSchema } from '../../../shared/upstream/trips.ts';
import { ApiError } from '../api-error.ts';
import { travelerId } from './profile-routes.ts';

/** GET /v1/trips/:tripId/segments/:segmentId (additive): where notification deep links lead. */
function tripsRoutes(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/trips/:tripId/segments/:segmentId',
    {
      preParsing: app.requireTraveler,
      schema: { params: SegmentParamsSchema, response: { 200: SegmentDetailsSchema } },
    },
    (request) => {
      const { tripId, segmentId } = request.params;
      const segment = app.trips.getSegment(travelerId(request.traveler), tripId, segmentId);
      if (!segment) throw new ApiError('RESOURCE_NOT_FOUND', { message: 'Segment not found' });
      return segment;
    },
  );
  done();
}

export default fp(tripsRoutes, { name: 'trips-routes', dependencies: ['traveler-auth', 'travelers'] });
