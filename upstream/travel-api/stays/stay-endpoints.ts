import { randomUUID } from 'node:crypto';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelope } from '#shared/upstream/error-envelope.ts';
import {
  StayDestinationsQuerySchema,
  StayDestinationsResponseSchema,
} from '#shared/upstream/destinations.ts';
import {
  StayFaresRequestSchema,
  StayPropertyDetailsSchema,
  StayPropertyParamsSchema,
  StaySearchRequestSchema,
  faresPath,
  nightsBetween,
  searchRooms,
  type StayFare,
  type StayFaresDone,
  type StaySearchDone,
  type StaySearchProgress,
  type StaySearchProperty,
} from '#shared/upstream/stays.ts';
import { ServiceError } from '../service-error.ts';
import { issuesToDetails } from '../request-validation.ts';
import { SseWriter } from '../sse/sse-writer.ts';
import { faresTarget } from './fares-target.ts';
import { HotelInventory, propertyDestination } from './hotel-inventory.ts';
import { quoteFares } from './quote-fares.ts';
import {
  earliestTodayOnEarth,
  priceFrom,
  propertiesFor,
  propertySummary,
  solutionKeyOf,
} from './search-solutions.ts';
import { stayCitiesFrom } from './stay-cities.ts';
import { StaySearchStore, type StaySearchTerms } from './stay-search-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    hotels: HotelInventory;
    staySearches: StaySearchStore;
  }
}

/** Properties between two `progress` events of the search stream. */
const PROGRESS_EVERY = 4;

let sharedHotels: HotelInventory | undefined;
let sharedHotelsSeed: string | undefined;

/**
 * Stays: GET /v1/stays/destinations (additive autocomplete), GET /v1/stays/properties/:propertyId
 * (additive: a hotel by its autocomplete id), POST /v1/stays/search and POST
 * /v1/stays/fares (SSE). Bodies without a Content-Type are read as JSON, the spec's default.
 */
async function stayEndpoints(app: FastifyInstance): Promise<void> {
  const config = app.travelConfig;
  if (sharedHotelsSeed !== config.TRAVEL_API_SEED) {
    sharedHotels = new HotelInventory({ seed: config.TRAVEL_API_SEED, ...stayCitiesFrom(app.inventory) });
    sharedHotelsSeed = config.TRAVEL_API_SEED;
  }
  app.decorate('hotels', sharedHotels as HotelInventory);
  app.decorate('staySearches', new StaySearchStore(app.db, config.TRAVEL_API_SESSION_CACHE_SECONDS));
  await app.register(stayHandlers);
}

function stayHandlers(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const config = app.travelConfig;
  const seed = config.TRAVEL_API_SEED;
  const streamOptions = () => ({ faults: app.faults, paceMs: config.TRAVEL_API_STREAM_PACE_MS });

  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (request.headers['content-type'] !== undefined) {
      done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
      return;
    }
    try {
      done(null, body === '' ? undefined : (JSON.parse(body as string) as unknown));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  const requireProvider = (request: FastifyRequest) => {
    const travelerId = request.traveler?.id;
    if (app.faults.for(travelerId).providerDown) throw app.faults.providerDownError('hotel', travelerId);
  };

  app.get(
    '/v1/stays/destinations',
    {
      preParsing: app.requireTravelerOrGuest,
      schema: { querystring: StayDestinationsQuerySchema, response: { 200: StayDestinationsResponseSchema } },
    },
    (request) => {
      requireProvider(request);
      const { query, limit, locale } = request.query;
      return { items: app.hotels.destinations(query, limit, app.inventory.placeNames.languageOf(locale)) };
    },
  );

  app.get(
    '/v1/stays/properties/:propertyId',
    {
      preParsing: app.requireTravelerOrGuest,
      schema: { params: StayPropertyParamsSchema, response: { 200: StayPropertyDetailsSchema } },
    },
    (request) => {
      requireProvider(request);
      const property = app.hotels.byRawId(request.params.propertyId);
      if (!property) {
        throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'No property has this autocomplete id' });
      }
      return {
        ...propertySummary(property),
        propertyId: property.rawId,
        currency: property.currency,
        timeZone: property.timeZone,
      };
    },
  );

  app.post(
    '/v1/stays/search',
    {
      preParsing: app.requireTraveler,
      config: { quota: 'search' },
      schema: { body: StaySearchRequestSchema },
    },
    async (request, reply) => {
      const body = request.body;
      const now = new Date();
      if (body.checkIn < earliestTodayOnEarth(now)) {
        throw new ServiceError('VALIDATION_ERROR', {
          message: 'The request failed validation',
          details: [{ field: 'checkIn', code: 'date_in_past', message: 'checkIn is in the past' }],
        });
      }
      requireProvider(request);
      const properties = propertiesFor(app.hotels, body.destination);
      const terms: StaySearchTerms = {
        checkIn: body.checkIn,
        checkOut: body.checkOut,
        rooms: searchRooms(body),
        bookingProfile: body.bookingProfile,
      };
      const searchId = randomUUID();
      const solutions = properties.map((property) => {
        const searchSolutionId = randomUUID();
        return {
          property,
          searchSolutionId,
          propertyId: property.propertyId,
          cityId: property.cityId,
          solutionKey: solutionKeyOf(searchSolutionId, property.propertyId, terms),
        };
      });
      const expiresAt = app.staySearches.save(searchId, terms, solutions, now);

      const events: StaySearchProperty[] = solutions.map((solution) => ({
        ...propertySummary(solution.property),
        searchId,
        searchSolutionId: solution.searchSolutionId,
        propertyId: solution.propertyId,
        solutionKey: solution.solutionKey,
        priceFrom: priceFrom(
          seed,
          solution.property,
          terms,
          now,
          config.TRAVEL_API_MAX_NIGHTS,
          body.currency,
        ),
        destination: propertyDestination(solution.property),
      }));

      const stream = SseWriter.open(reply, streamOptions());
      let received = 0;
      for (const event of events) {
        if (!(await stream.send({ event: 'property', data: event }))) return;
        received += 1;
        if (app.faults.current.providerErrorMidStream) return endWithProviderError(stream);
        if (received % PROGRESS_EVERY === 0 && received < events.length) {
          const progress: StaySearchProgress = { searchId, received, expected: events.length };
          if (!(await stream.send({ event: 'progress', data: progress }))) return;
        }
      }
      const progress: StaySearchProgress = { searchId, received, expected: events.length };
      const done: StaySearchDone = {
        searchId,
        propertyCount: received,
        expiresAt: expiresAt.toISOString(),
      };
      if (await stream.send({ event: 'progress', data: progress }))
        await stream.end({ event: 'done', data: done });
    },
  );

  app.post(
    '/v1/stays/fares',
    { preParsing: app.requireTravelerOrGuest, config: { quota: 'search' } },
    async (request, reply) => {
      const body = jsonObjectBody(request);
      const path = faresPath(body);
      if (path.kind === 'both' || path.kind === 'neither') {
        throw new ServiceError('UNPROCESSABLE_ENTITY', {
          message:
            path.kind === 'both'
              ? 'Use exactly one path: searchSolutionId with propertyId, or property, not both'
              : `Use exactly one path: searchSolutionId with propertyId, or property${
                  path.missing.length > 0 ? ` (missing ${path.missing.join(', ')})` : ''
                }`,
        });
      }
      const parsed = StayFaresRequestSchema.safeParse(body, { reportInput: true });
      if (!parsed.success) {
        throw new ServiceError('VALIDATION_ERROR', {
          message: 'The request failed validation',
          details: issuesToDetails(parsed.error.issues, 'body'),
        });
      }
      const fares = parsed.data;
      requireProvider(request);
      const now = new Date();
      const terms: StaySearchTerms = {
        checkIn: fares.checkIn,
        checkOut: fares.checkOut,
        rooms: fares.rooms,
        bookingProfile: fares.bookingProfile,
      };

      const { property, searchSolutionId, solutionKey } = faresTarget(
        app,
        fares,
        terms,
        now,
        request.traveler?.id,
      );

      const stream = SseWriter.open(reply, streamOptions());
      const nights = nightsBetween(fares.checkIn, fares.checkOut);
      const maxNights = config.TRAVEL_API_MAX_NIGHTS;
      if (nights > maxNights) {
        const envelope = errorEnvelope('MAX_NIGHTS_EXCEEDED', {
          message: `Stays are limited to ${maxNights} nights; this one has ${nights}.`,
          recoveryAction: 'FIX_INPUT',
        });
        return stream.end({ event: 'error', data: envelope });
      }
      let quoted;
      try {
        quoted = quoteFares({ seed, property, ...terms, now, currency: fares.currency });
      } catch (error) {
        request.log.error({ err: error }, 'stay fares could not be priced');
        return endWithProviderError(stream);
      }
      const quotedUntil = new Date(now.getTime() + config.TRAVEL_API_SESSION_CACHE_SECONDS * 1000);
      app.quotes.save(
        quoted.map((quote) => ({
          offerId: quote.fareId,
          quote: {
            kind: 'stay',
            fare: { ...quote, searchSolutionId, solutionKey },
            property: {
              propertyId: property.propertyId,
              name: property.name,
              address: property.address,
              city: property.city,
              countryCode: property.countryCode,
              timeZone: property.timeZone,
            },
            ...terms,
          },
          price: { amount: quote.totalPrice, currency: quote.currency },
          expiresAt: quotedUntil,
        })),
        now,
        request.traveler?.id,
      );
      let fareCount = 0;
      for (const quote of quoted) {
        const fare: StayFare = { ...quote, searchSolutionId, solutionKey };
        if (!(await stream.send({ event: 'fare', data: fare }))) return;
        fareCount += 1;
        if (app.faults.current.providerErrorMidStream) return endWithProviderError(stream);
      }
      if (app.faults.current.providerErrorMidStream) return endWithProviderError(stream);
      const done: StayFaresDone = { fareCount };
      await stream.end({ event: 'done', data: done });
    },
  );
  done();
}

function endWithProviderError(stream: SseWriter): Promise<void> {
  return stream.end({
    event: 'error',
    data: errorEnvelope('PROVIDER_ERROR', {
      message: 'The stay provider failed; try again shortly',
      recoveryAction: 'RETRY_LATER',
      retryAfterSeconds: 5,
    }),
  });
}

function jsonObjectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('VALIDATION_ERROR', {
      message: 'The request failed validation',
      details: [{ field: 'body', code: 'object_type', message: 'The body must be a JSON object' }],
    });
  }
  return body as Record<string, unknown>;
}

export default fp(stayEndpoints, {
  name: 'stay-endpoints',
  dependencies: ['db', 'faults', 'travelers', 'bearer-auth', 'consumer-quotas', 'quotes'],
});
