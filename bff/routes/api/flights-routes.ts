import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AirportListSchema,
  AirportSearchQuerySchema,
  FlightSearchRequestSchema,
  FlightSearchResponseSchema,
} from '#shared/upstream/flights.ts';
import { expensiveRouteRateLimit } from '../../plugins/rate-limit.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { withErrorResponses } from './error-responses.ts';

/** POST /api/flights/search and GET /api/flights/airports, for the signed-in traveler. */
export default function flightsRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/flights/search',
    {
      config: { rateLimit: expensiveRouteRateLimit(app.config, 'search') },
      schema: {
        tags: ['flights'],
        summary: 'Search flights for a one-way, return or multi-city itinerary',
        body: FlightSearchRequestSchema,
        response: withErrorResponses({ 200: FlightSearchResponseSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'POST',
        path: '/v1/flights/search',
        body: request.body,
        auth: await travelerAuth(app, request),
        // A search changes nothing upstream: retrying it is as safe as retrying a read.
        retry: 'idempotent',
        ...upstreamContext(request, reply),
        schema: FlightSearchResponseSchema,
      }),
  );

  routes.get(
    '/api/flights/airports',
    {
      schema: {
        tags: ['flights'],
        summary: 'Airports matching a code, city or name (autocomplete)',
        querystring: AirportSearchQuerySchema,
        response: withErrorResponses({ 200: AirportListSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'GET',
        path: '/v1/flights/airports',
        query: request.query,
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: AirportListSchema,
      }),
  );
  done();
}
