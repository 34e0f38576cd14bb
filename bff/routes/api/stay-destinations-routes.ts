import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  StayDestinationsQuerySchema,
  StayDestinationsResponseSchema,
} from '#shared/upstream/destinations.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { withErrorResponses } from './error-responses.ts';

/** GET /api/stays/destinations: cities and named properties matching the query (autocomplete). */
export default function stayDestinationsRoute(
  app: FastifyInstance,
  _options: unknown,
  done: () => void,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/stays/destinations',
    {
      schema: {
        tags: ['stays'],
        summary: 'Stay destinations: cities first, then properties',
        querystring: StayDestinationsQuerySchema,
        response: withErrorResponses({ 200: StayDestinationsResponseSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'GET',
        path: '/v1/stays/destinations',
        query: request.query,
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: StayDestinationsResponseSchema,
      }),
  );
  done();
}
