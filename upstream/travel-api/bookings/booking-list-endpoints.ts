import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BookingFiltersSchema,
  BookingListSchema,
  BookingsPageQuerySchema,
  BookingsPageSchema,
} from '#shared/upstream/bookings.ts';
import { offsetPage } from '../offset-page.ts';

/** GET /v1/bookings (legacy plain array) and GET /v1/bookings/page (page envelope, mirror count). */
function bookingListEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/v1/bookings',
    {
      preParsing: app.requireTraveler,
      schema: { querystring: BookingFiltersSchema, response: { 200: BookingListSchema } },
    },
    (request) => app.travelers.bookings(request.travelerId, request.query).items,
  );

  app.get(
    '/v1/bookings/page',
    {
      preParsing: app.requireTraveler,
      schema: { querystring: BookingsPageQuerySchema, response: { 200: BookingsPageSchema } },
    },
    (request) => {
      const { limit, offset, ...filters } = request.query;
      return offsetPage(app.travelers.bookings(request.travelerId, filters, { limit, offset }), {
        limit,
        offset,
      });
    },
  );
  done();
}

export default fp(bookingListEndpoints, {
  name: 'booking-list-endpoints',
  dependencies: ['bearer-auth', 'travelers'],
});
