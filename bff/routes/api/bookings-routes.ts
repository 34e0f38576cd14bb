import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BookingsPageQuerySchema, BookingsPageSchema } from '#shared/upstream/bookings.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { withErrorResponses } from './error-responses.ts';

/** GET /api/bookings: one page of the traveler's bookings (GET /v1/bookings/page) with the filters. */
export default function bookingsRoute(app: FastifyInstance, _options: unknown, done: () => void): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: 'A page of bookings: limit, offset, status, vertical and start-date bounds',
        querystring: BookingsPageQuerySchema,
        response: withErrorResponses({ 200: BookingsPageSchema }),
      },
    },
    async (request, reply) => {
      const { limit, offset, status, vertical, from, to, endFrom, endBefore, travel, sort } = request.query;
      return app.travelApi.request({
        method: 'GET',
        path: '/v1/bookings/page',
        query: {
          limit,
          offset,
          status: status?.join(','),
          vertical: vertical?.join(','),
          from,
          to,
          endFrom,
          endBefore,
          travel,
          sort,
        },
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: BookingsPageSchema,
      });
    },
  );
  done();
}
