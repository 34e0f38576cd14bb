import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { NotificationParamsSchema } from '#shared/api/notification-params.ts';
import {
  BookingDetailsSchema,
  BookingParamsSchema,
  OfferParamsSchema,
  PaymentMethodListSchema,
  PaymentMethodsQuerySchema,
  PriceCheckSchema,
} from '#shared/upstream/booking-operations.ts';
import { BookingsPageQuerySchema, BookingsPageSchema } from '#shared/upstream/bookings.ts';
import {
  StayDestinationsQuerySchema,
  StayDestinationsResponseSchema,
} from '#shared/upstream/destinations.ts';
import {
  AirportListSchema,
  AirportSearchQuerySchema,
  FlightSearchRequestSchema,
  FlightSearchResponseSchema,
} from '#shared/upstream/flights.ts';
import {
  NotificationSchema,
  NotificationsPageSchema,
  NotificationsQuerySchema,
  NotificationsReadAllSchema,
} from '#shared/upstream/notifications.ts';
import { ProfilePatchSchema, ProfileSchema } from '#shared/upstream/profile.ts';
import { StayPropertyDetailsSchema, StayPropertyParamsSchema } from '#shared/upstream/stays.ts';
import {
  SegmentDetailsSchema,
  SegmentParamsSchema,
  TripDetailsSchema,
  TripParamsSchema,
  TripsPageQuerySchema,
  TripsPageSchema,
} from '#shared/upstream/trips.ts';
import { expensiveRouteRateLimit, type ExpensiveRouteKind } from '../../plugins/rate-limit.ts';
import type { UpstreamQuery } from '../../travel-api/travel-api.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { routeSchema } from './error-responses.ts';

/**
 * A /api route that is one signed call of the signed-in traveler to the travel API, its answer relayed as
 * it came once it matches `response`. Each `:name` of `upstream` is the route's path parameter of that
 * name, percent-encoded.
 */
export interface PassThroughRoute<Query extends UpstreamQuery = UpstreamQuery> {
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  /** The /v1 path, with the route's `:name` parameters. */
  upstream: string;
  /** The OpenAPI tag. */
  tag: string;
  summary: string;
  params?: z.ZodType<Record<string, string>>;
  query?: z.ZodType<Query>;
  /** The upstream query when it is not the route's query as validated. */
  upstreamQuery?(query: Query): UpstreamQuery;
  body?: z.ZodType;
  /** The travel API's 2xx body, relayed with status 200. */
  response: z.ZodType;
  /** 'idempotent' for a call that gives the same result however often it is applied (GETs are). */
  retry?: 'idempotent';
  rateLimit?: ExpensiveRouteKind;
  /** What the BFF keeps of a successful answer for itself (the profile's locale, in the session). */
  keep?(app: FastifyInstance, request: FastifyRequest, answer: unknown): Promise<void>;
}

const JSON_UTF8 = 'application/json; charset=utf-8';

const row = <Query extends UpstreamQuery>(route: PassThroughRoute<Query>): PassThroughRoute => route;

/** Every pass-through route of the BFF, each behind the traveler gate (bff/routes/api/index.ts). */
export const PASS_THROUGH_ROUTES: readonly PassThroughRoute[] = [
  row({
    method: 'GET',
    url: '/api/profile',
    upstream: '/v1/profile',
    tag: 'profile',
    summary: 'The traveler’s profile',
    response: ProfileSchema,
    keep: keepProfileLocale,
  }),
  row({
    method: 'PATCH',
    url: '/api/profile',
    upstream: '/v1/profile',
    tag: 'profile',
    summary: 'Change some fields of the traveler’s profile',
    body: ProfilePatchSchema,
    response: ProfileSchema,
    keep: keepProfileLocale,
    // Setting fields to values gives the same result however often it is applied.
    retry: 'idempotent',
  }),
  row({
    method: 'POST',
    url: '/api/flights/search',
    upstream: '/v1/flights/search',
    tag: 'flights',
    summary: 'Search flights for a one-way, return or multi-city itinerary',
    body: FlightSearchRequestSchema,
    response: FlightSearchResponseSchema,
    // A search changes nothing upstream: retrying it is as safe as retrying a read.
    retry: 'idempotent',
    rateLimit: 'search',
  }),
  row({
    method: 'GET',
    url: '/api/flights/airports',
    upstream: '/v1/flights/airports',
    tag: 'flights',
    summary: 'Airports matching a code, city or name (autocomplete)',
    query: AirportSearchQuerySchema,
    response: AirportListSchema,
  }),
  row({
    method: 'GET',
    url: '/api/stays/destinations',
    upstream: '/v1/stays/destinations',
    tag: 'stays',
    summary: 'Stay destinations: cities first, then properties',
    query: StayDestinationsQuerySchema,
    response: StayDestinationsResponseSchema,
  }),
  row({
    method: 'GET',
    url: '/api/stays/properties/:propertyId',
    upstream: '/v1/stays/properties/:propertyId',
    tag: 'stays',
    summary: 'A hotel by its autocomplete id: address, stars, guest score, amenities and picture',
    params: StayPropertyParamsSchema,
    response: StayPropertyDetailsSchema,
  }),
  row({
    method: 'GET',
    url: '/api/bookings',
    upstream: '/v1/bookings/page',
    tag: 'bookings',
    summary: 'A page of bookings: limit, offset, status, vertical and start-date bounds',
    query: BookingsPageQuerySchema,
    // The travel API takes each list as one comma-separated value.
    upstreamQuery: (query) => ({
      ...query,
      status: query.status?.join(','),
      vertical: query.vertical?.join(','),
    }),
    response: BookingsPageSchema,
  }),
  row({
    method: 'POST',
    url: '/api/offers/:offerId/price-check',
    upstream: '/v1/offers/:offerId/price-check',
    tag: 'bookings',
    summary: 'The price of a flight offer or a stay rate now: unchanged, changed or OFFER_EXPIRED',
    params: OfferParamsSchema,
    response: PriceCheckSchema,
    retry: 'idempotent',
  }),
  row({
    method: 'GET',
    url: '/api/payment-methods',
    upstream: '/v1/me/payment-methods',
    tag: 'bookings',
    summary: 'The traveler’s payment methods on file (by reference), of one travel kind or all',
    query: PaymentMethodsQuerySchema,
    response: PaymentMethodListSchema,
  }),
  row({
    method: 'GET',
    url: '/api/bookings/:bookingId',
    upstream: '/v1/bookings/:bookingId',
    tag: 'bookings',
    summary: 'A booking with what was booked and what cancelling it now would give',
    params: BookingParamsSchema,
    response: BookingDetailsSchema,
  }),
  row({
    method: 'POST',
    url: '/api/bookings/:bookingId/cancel',
    upstream: '/v1/bookings/:bookingId/cancel',
    tag: 'bookings',
    summary: 'Cancel a booking by its rate’s rules (refund or fee)',
    params: BookingParamsSchema,
    response: BookingDetailsSchema,
    // Cancelling a cancelled booking answers it unchanged, so a retry is safe.
    retry: 'idempotent',
  }),
  row({
    method: 'GET',
    url: '/api/trips',
    upstream: '/v1/trips/page',
    tag: 'trips',
    summary: 'A page of trips, earliest first, with places, kinds of segment and overall status',
    query: TripsPageQuerySchema,
    response: TripsPageSchema,
  }),
  row({
    method: 'GET',
    url: '/api/trips/:tripId',
    upstream: '/v1/trips/:tripId',
    tag: 'trips',
    summary: 'A trip with every segment in timeline order',
    params: TripParamsSchema,
    response: TripDetailsSchema,
  }),
  row({
    method: 'GET',
    url: '/api/trips/:tripId/segments/:segmentId',
    upstream: '/v1/trips/:tripId/segments/:segmentId',
    tag: 'trips',
    summary: 'A trip segment with scheduled and estimated times',
    params: SegmentParamsSchema,
    response: SegmentDetailsSchema,
  }),
  row({
    method: 'GET',
    url: '/api/notifications',
    upstream: '/v1/me/notifications',
    tag: 'notifications',
    summary: 'A page of the traveler’s notifications, newest first',
    query: NotificationsQuerySchema,
    response: NotificationsPageSchema,
  }),
  row({
    method: 'POST',
    url: '/api/notifications/:id/read',
    upstream: '/v1/me/notifications/:id/read',
    tag: 'notifications',
    summary: 'Mark one notification read (idempotent)',
    params: NotificationParamsSchema,
    response: NotificationSchema,
    retry: 'idempotent',
  }),
  row({
    method: 'POST',
    url: '/api/notifications/read-all',
    upstream: '/v1/me/notifications/read-all',
    tag: 'notifications',
    summary: 'Mark every notification read (idempotent): how many changed',
    response: NotificationsReadAllSchema,
    retry: 'idempotent',
  }),
];

/** The /v1 path of a call: each `:name` of the template is the parameter of that name, percent-encoded. */
export function upstreamPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`The route has no parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}

/** Registers one pass-through route: its schemas, its quota, and the one signed call it makes. */
export function registerPassThrough(app: FastifyInstance, route: PassThroughRoute): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: route.method,
    url: route.url,
    config: route.rateLimit ? { rateLimit: expensiveRouteRateLimit(app.config, route.rateLimit) } : {},
    schema: routeSchema(
      route.tag,
      route.summary,
      // Only the parts a row declares: Fastify warns (FSTWRN001) of a part named without a schema.
      {
        ...(route.params && { params: route.params }),
        ...(route.query && { querystring: route.query }),
        ...(route.body && { body: route.body }),
      },
      { 200: route.response },
    ),
    handler: async (request, reply) => {
      // What the route's own schemas let through; a route without a query schema sends none upstream.
      const params = request.params as Record<string, string>;
      const query = route.query && (request.query as UpstreamQuery);
      const answer = await app.travelApi.request({
        method: route.method,
        path: upstreamPath(route.upstream, params),
        ...(query && { query: route.upstreamQuery ? route.upstreamQuery(query) : query }),
        ...(route.body && { body: request.body }),
        ...(route.retry && { retry: route.retry }),
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: route.response,
      });
      await route.keep?.(app, request, answer);
      // The answer is what route.response made of the travel API's body just now: the route's serializer
      // would check it against the same schema again before writing it, so it is written as it is.
      return reply.type(JSON_UTF8).send(JSON.stringify(answer));
    },
  });
}

/** The session follows the profile's locale, so the app's next first paint is in its language. */
async function keepProfileLocale(
  app: FastifyInstance,
  request: FastifyRequest,
  answer: unknown,
): Promise<void> {
  const locale = ProfileSchema.safeParse(answer).data?.locale;
  const session = request.session;
  if (locale && session && session.locale !== locale) await app.sessions.rememberLocale(session.id, locale);
}

/** Every route of PASS_THROUGH_ROUTES. */
export default async function passThroughRoutes(app: FastifyInstance): Promise<void> {
  for (const route of PASS_THROUGH_ROUTES) registerPassThrough(app, route);
}
