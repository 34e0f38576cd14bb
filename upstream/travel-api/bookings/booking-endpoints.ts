import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BOOKING_LEVERS,
  BookingDetailsSchema,
  BookingParamsSchema,
  CreateBookingRequestSchema,
  IdempotencyKeyParamsSchema,
  IdempotencyKeySchema,
  OfferParamsSchema,
  PaymentMethodListSchema,
  PaymentMethodsQuerySchema,
  PriceCheckSchema,
} from '#shared/upstream/booking-operations.ts';
import { ServiceError } from '../service-error.ts';
import { issuesToDetails } from '../request-validation.ts';
import { BookingService, type BookingOutcome } from './booking-service.ts';
import { paymentMethodsOf } from './payment-methods.ts';

declare module 'fastify' {
  interface FastifyInstance {
    bookingService: BookingService;
  }
}

const LeverRequestSchema = z.object({ travelerId: z.uuid(), lever: z.enum(BOOKING_LEVERS) });
const LeverAnswerSchema = z.object({ travelerId: z.uuid(), armed: z.array(z.enum(BOOKING_LEVERS)) });

/**
 * Additive booking operations: POST /v1/offers/:offerId/price-check, GET /v1/me/payment-methods,
 * POST /v1/bookings (Idempotency-Key), GET /v1/bookings/:bookingId, GET /v1/booking-requests/:idempotencyKey
 * (the answer a create gave, for a client that lost it), POST /v1/bookings/:bookingId/cancel; and the admin
 * levers POST /admin/booking-levers and DELETE /admin/booking-levers.
 */
function bookingEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const seed = app.travelConfig.TRAVEL_API_SEED;
  const paymentMethods = (id: string) =>
    paymentMethodsOf(seed, id, app.travelers.profile(id)?.name ?? 'Traveler', new Date());
  const service = new BookingService({
    db: app.db,
    quotes: app.quotes,
    trips: app.trips,
    travelers: app.travelers,
    levers: app.bookingLevers,
    faults: app.faults,
    notifications: app.notifications,
    paymentMethods,
    cityNamesOf: (place) => app.inventory.cityNamesOf(place),
  });
  app.decorate('bookingService', service);

  const send = (reply: FastifyReply, outcome: BookingOutcome) => {
    if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
    return reply.code(outcome.status).send(outcome.body);
  };

  app.post(
    '/v1/offers/:offerId/price-check',
    {
      preParsing: app.requireTraveler,
      schema: { params: OfferParamsSchema, response: { 200: PriceCheckSchema } },
    },
    (request) => service.priceCheck(request.travelerId, request.params.offerId, new Date()),
  );

  app.get(
    '/v1/me/payment-methods',
    {
      preParsing: app.requireTraveler,
      schema: { querystring: PaymentMethodsQuerySchema, response: { 200: PaymentMethodListSchema } },
    },
    (request) => {
      const { bookingProfile } = request.query;
      const items = paymentMethods(request.travelerId);
      return {
        items:
          bookingProfile === undefined
            ? items
            : items.filter((item) => item.bookingProfile === bookingProfile),
      };
    },
  );

  app.post(
    '/v1/bookings',
    { preParsing: app.requireTraveler, schema: { body: CreateBookingRequestSchema } },
    (request, reply) => {
      const key = IdempotencyKeySchema.safeParse(request.headers['idempotency-key'], { reportInput: true });
      if (!key.success) {
        throw new ServiceError('VALIDATION_ERROR', {
          message: 'The request failed validation',
          details: issuesToDetails(key.error.issues, 'idempotency-key'),
        });
      }
      const outcome = service.create(
        {
          travelerId: request.travelerId,
          idempotencyKey: key.data,
          ...request.body,
        },
        new Date(),
      );
      return send(reply, outcome);
    },
  );

  app.get(
    '/v1/booking-requests/:idempotencyKey',
    { preParsing: app.requireTraveler, schema: { params: IdempotencyKeyParamsSchema } },
    (request, reply) => {
      const outcome = service.replay(request.travelerId, request.params.idempotencyKey);
      if (!outcome) {
        throw new ServiceError('RESOURCE_NOT_FOUND', {
          message: 'No booking request with this key has completed',
        });
      }
      return send(reply, outcome);
    },
  );

  app.get(
    '/v1/bookings/:bookingId',
    {
      preParsing: app.requireTraveler,
      schema: { params: BookingParamsSchema, response: { 200: BookingDetailsSchema } },
    },
    (request) => {
      const details = service.details(request.travelerId, request.params.bookingId);
      if (!details) throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'Booking not found' });
      return details;
    },
  );

  app.post(
    '/v1/bookings/:bookingId/cancel',
    {
      preParsing: app.requireTraveler,
      schema: { params: BookingParamsSchema, response: { 200: BookingDetailsSchema } },
    },
    (request) => service.cancel(request.travelerId, request.params.bookingId, new Date()),
  );

  app.post(
    '/admin/booking-levers',
    { schema: { body: LeverRequestSchema, response: { 200: LeverAnswerSchema } } },
    (request) => {
      const { travelerId: id, lever } = request.body;
      app.bookingLevers.arm(id, lever);
      return { travelerId: id, armed: app.bookingLevers.armed(id) };
    },
  );
  app.delete('/admin/booking-levers', () => {
    app.bookingLevers.clear();
    return { cleared: true };
  });
  done();
}

export default fp(bookingEndpoints, {
  name: 'booking-endpoints',
  dependencies: ['bearer-auth', 'travelers', 'quotes', 'faults', 'notification-endpoints', 'admin-gate'],
});
