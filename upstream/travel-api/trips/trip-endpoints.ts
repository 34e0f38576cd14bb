import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SegmentDetailsSchema,
  SegmentParamsSchema,
  TripDetailsSchema,
  TripParamsSchema,
  TripsPageQuerySchema,
  TripsPageSchema,
} from '#shared/upstream/trips.ts';
import { ServiceError } from '../service-error.ts';
import { offsetPage } from '../offset-page.ts';

/**
 * Additive trip reads: GET /v1/trips/page (the traveler's trips, page envelope), GET /v1/trips/:tripId (a trip's
 * timeline) and GET /v1/trips/:tripId/segments/:segmentId (where notification deep links lead).
 */
function tripEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/v1/trips/page',
    {
      preParsing: app.requireTraveler,
      schema: { querystring: TripsPageQuerySchema, response: { 200: TripsPageSchema } },
    },
    (request) => offsetPage(app.trips.listTrips(request.travelerId, request.query), request.query),
  );

  app.get(
    '/v1/trips/:tripId',
    {
      preParsing: app.requireTraveler,
      schema: { params: TripParamsSchema, response: { 200: TripDetailsSchema } },
    },
    (request) => {
      const trip = app.trips.getTrip(request.travelerId, request.params.tripId);
      if (!trip) throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'Trip not found' });
      return trip;
    },
  );
  app.get(
    '/v1/trips/:tripId/segments/:segmentId',
    {
      preParsing: app.requireTraveler,
      schema: { params: SegmentParamsSchema, response: { 200: SegmentDetailsSchema } },
    },
    (request) => {
      const { tripId, segmentId } = request.params;
      const segment = app.trips.getSegment(request.travelerId, tripId, segmentId);
      if (!segment) throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'Segment not found' });
      return segment;
    },
  );
  done();
}

export default fp(tripEndpoints, { name: 'trip-endpoints', dependencies: ['bearer-auth', 'travelers'] });
