import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SegmentDetailsSchema,
  SegmentParamsSchema,
  TripDetailsSchema,
  TripParamsSchema,
  TripsPageQuerySchema,
  TripsPageSchema,
} from '#shared/upstream/trips.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { withErrorResponses } from './error-responses.ts';

/**
 * The traveler's trips: GET /api/trips (a page of trips), GET /api/trips/:tripId (a trip's timeline) and
 * GET /api/trips/:tripId/segments/:segmentId (a segment with its live status, and its trip).
 */
export default function tripSegmentRoute(app: FastifyInstance, _options: unknown, done: () => void): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/trips',
    {
      schema: {
        tags: ['trips'],
        summary: 'A page of trips, earliest first, with places, kinds of segment and overall status',
        querystring: TripsPageQuerySchema,
        response: withErrorResponses({ 200: TripsPageSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'GET',
        path: '/v1/trips/page',
        query: { limit: request.query.limit, offset: request.query.offset },
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: TripsPageSchema,
      }),
  );

  routes.get(
    '/api/trips/:tripId',
    {
      schema: {
        tags: ['trips'],
        summary: 'A trip with every segment in timeline order',
        params: TripParamsSchema,
        response: withErrorResponses({ 200: TripDetailsSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'GET',
        path: `/v1/trips/${encodeURIComponent(request.params.tripId)}`,
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: TripDetailsSchema,
      }),
  );

  routes.get(
    '/api/trips/:tripId/segments/:segmentId',
    {
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
