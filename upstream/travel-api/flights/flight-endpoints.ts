import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ErrorDetail } from '#shared/upstream/error-envelope.ts';
import {
  FLIGHT_BOOKING_HORIZON_DAYS,
  AirportListSchema,
  AirportSearchQuerySchema,
  FlightSearchRequestSchema,
  FlightSearchResponseSchema,
} from '#shared/upstream/flights.ts';
import { ServiceError } from '../service-error.ts';
import { searchFlights, type FlightLegInput } from './search-flights.ts';
import { addDays, localDate } from '../time-zones.ts';

/** How far ahead flights are sold, in days. */

/** POST /v1/flights/search and GET /v1/flights/airports (additive autocomplete). */
function flightEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/v1/flights/search',
    {
      preParsing: app.requireTraveler,
      config: { quota: 'search' },
      schema: { body: FlightSearchRequestSchema, response: { 200: FlightSearchResponseSchema } },
    },
    (request) => {
      const travelerId = request.traveler?.id;
      if (app.faults.for(travelerId).providerDown) throw app.faults.providerDownError('flight', travelerId);
      const now = new Date();
      const details: ErrorDetail[] = [];
      const legs: FlightLegInput[] = [];
      request.body.itinerary.forEach((leg, index) => {
        const origin = app.inventory.airport(leg.origin);
        const destination = app.inventory.airport(leg.destination);
        if (!origin) details.push(unknownAirport(`itinerary.${index}.origin`, leg.origin));
        if (!destination) details.push(unknownAirport(`itinerary.${index}.destination`, leg.destination));
        if (!origin || !destination) return;
        const today = localDate(now, origin.timeZone);
        if (leg.date < today) {
          details.push({
            field: `itinerary.${index}.date`,
            code: 'greater_than_equal',
            message: `The date is in the past at ${origin.code} (today is ${today})`,
          });
        } else if (leg.date > addDays(today, FLIGHT_BOOKING_HORIZON_DAYS)) {
          details.push({
            field: `itinerary.${index}.date`,
            code: 'less_than_equal',
            message: `Flights are sold at most ${FLIGHT_BOOKING_HORIZON_DAYS} days ahead`,
          });
        }
        legs.push({ origin, destination, date: leg.date });
      });
      if (details.length > 0) {
        throw new ServiceError('VALIDATION_ERROR', { message: 'The request failed validation', details });
      }
      const result = searchFlights({
        seed: app.travelConfig.TRAVEL_API_SEED,
        request: request.body,
        legs,
        hubs: app.inventory.majorAirports,
        now,
      });
      const { passengers } = request.body;
      app.quotes.save(
        result.offers.map((offer) => ({
          offerId: offer.offerId,
          quote: { kind: 'flight', offer, passengers },
          price: offer.totalPrice,
          expiresAt: new Date(offer.expiresAt),
        })),
        now,
        request.traveler?.id,
      );
      return result;
    },
  );

  app.get(
    '/v1/flights/airports',
    {
      preParsing: app.requireTraveler,
      schema: { querystring: AirportSearchQuerySchema, response: { 200: AirportListSchema } },
    },
    (request) => ({
      items: app.inventory.searchAirports(request.query.query, request.query.limit, request.query.locale),
    }),
  );
  done();
}

function unknownAirport(field: string, code: string): ErrorDetail {
  return { field, code: 'unknown_airport', message: `No airport with the code ${code}` };
}

export default fp(flightEndpoints, {
  name: 'flight-endpoints',
  dependencies: ['bearer-auth', 'travelers', 'quotes'],
});
