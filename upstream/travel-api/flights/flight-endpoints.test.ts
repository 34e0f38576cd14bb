import { beforeAll, describe, expect, it } from 'vitest';
import { AirportListSchema, FlightSearchResponseSchema } from '#shared/upstream/flights.ts';
import { addDays } from '../time-zones.ts';
import { envelopeOf } from '../test-support/envelope-of.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { TEST_ADMIN_TOKEN } from '../test-support/start-travel-api.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const stack = travelApiWithIdentity({ env: { TRAVEL_API_RATE_LIMIT_SEARCH_MAX: '40' } });
let token: string;
const inDays = (days: number): string => addDays(new Date().toISOString().slice(0, 10), days);

beforeAll(async () => {
  token = await stack.identity.token();
});

describe('POST /v1/flights/search', () => {
  const search = (body: unknown): Promise<Response> =>
    signedFetch(stack.api.baseUrl, { path: '/v1/flights/search', json: body, token });

  it('returns offers with per-leg segments, local times with UTC offsets, durations, stops, cabin and price', async () => {
    const response = await search({
      itinerary: [
        { origin: 'LHR', destination: 'JFK', date: inDays(20) },
        { origin: 'JFK', destination: 'LHR', date: inDays(27) },
      ],
      passengers: { adults: 2 },
      cabinClass: 'business',
    });
    expect(response.status).toBe(200);
    const result = FlightSearchResponseSchema.parse(await response.json());
    expect(result.offers.length).toBeGreaterThan(2);
    const prices = result.offers.map((offer) => offer.totalPrice.amount);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    for (const offer of result.offers) {
      expect(offer.legs).toHaveLength(2);
      expect(offer.cabinClass).toBe('business');
      expect(offer.totalPrice.amount).toBeCloseTo(offer.pricePerAdult.amount * 2, 0);
      const outbound = offer.legs[0];
      expect(outbound?.origin.code).toBe('LHR');
      expect(outbound?.destination.code).toBe('JFK');
      expect(outbound?.departureTime).toMatch(
        new RegExp(`^${inDays(20)}T\\d{2}:\\d{2}:00[+-]\\d{2}:\\d{2}$`),
      );
      expect(outbound?.arrivalTime).toMatch(/-0[45]:00$/);
      expect(outbound?.stops).toBe((outbound?.segments.length ?? 0) - 1);
      const elapsed =
        (Date.parse(outbound?.arrivalTime ?? '') - Date.parse(outbound?.departureTime ?? '')) / 60_000;
      expect(outbound?.durationMinutes).toBe(elapsed);
    }
  });

  it('is deterministic for the same route, date and cabin', async () => {
    const body = {
      itinerary: [{ origin: 'FRA', destination: 'SIN', date: inDays(40) }],
      passengers: { adults: 1 },
      cabinClass: 'economy',
    };
    const first = FlightSearchResponseSchema.parse(await (await search(body)).json());
    const second = FlightSearchResponseSchema.parse(await (await search(body)).json());
    expect(second.offers.map((offer) => offer.legs)).toEqual(first.offers.map((offer) => offer.legs));
  });

  it('reports one detail per failing field with dotted paths and rule names', async () => {
    const { status, error } = await envelopeOf(
      await search({
        itinerary: [{ origin: 'LHR', destination: 'LHR', date: 'tomorrow' }],
        passengers: { adults: 0 },
        cabinClass: 'steerage',
      }),
    );
    expect(status).toBe(422);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.recoveryAction).toBe('FIX_INPUT');
    const byField = Object.fromEntries(error.details.map((detail) => [detail.field, detail.code]));
    expect(byField).toMatchObject({
      'passengers.adults': 'greater_than_equal',
      cabinClass: 'enum',
      'itinerary.0.date': 'date_parsing',
    });
    expect(new Set(error.details.map((detail) => detail.field)).size).toBe(error.details.length);
  });

  it('accepts each cabin class the service defines', async () => {
    for (const cabinClass of ['economy', 'premium_economy', 'business', 'first']) {
      const response = await search({
        itinerary: [{ origin: 'MAD', destination: 'BCN', date: inDays(5) }],
        passengers: { adults: 1 },
        cabinClass,
      });
      expect(response.status, cabinClass).toBe(200);
    }
  });

  it('rejects unknown airports, past dates and a missing body field', async () => {
    const { error } = await envelopeOf(
      await search({
        itinerary: [
          { origin: 'CDG', destination: 'AMS', date: inDays(-3) },
          { origin: 'QQQ', destination: 'CDG', date: inDays(3) },
        ],
        passengers: { adults: 1 },
        cabinClass: 'economy',
      }),
    );
    expect(error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'itinerary.0.date', code: 'greater_than_equal' }),
        expect.objectContaining({ field: 'itinerary.1.origin', code: 'unknown_airport' }),
      ]),
    );
    const missing = await envelopeOf(
      await search({
        itinerary: [{ origin: 'CDG', destination: 'AMS', date: inDays(3) }],
        cabinClass: 'economy',
      }),
    );
    expect(missing.error.details).toEqual([
      expect.objectContaining({ field: 'passengers', code: 'missing' }),
    ]);
  });

  it('answers 503 SERVICE_UNAVAILABLE while the provider is down', async () => {
    await fetch(`${stack.api.baseUrl}/admin/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ providerDown: true, durationSeconds: 60 }),
    });
    const { status, error } = await envelopeOf(
      await search({
        itinerary: [{ origin: 'MAD', destination: 'BCN', date: inDays(5) }],
        passengers: { adults: 1 },
        cabinClass: 'economy',
      }),
    );
    await fetch(`${stack.api.baseUrl}/admin/faults`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(status).toBe(503);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', recoveryAction: 'RETRY_LATER' });
  });
});

describe('GET /v1/flights/airports', () => {
  it('finds real airports by city with their IANA time zones, hubs first', async () => {
    const response = await signedFetch(stack.api.baseUrl, {
      path: '/v1/flights/airports?query=london&limit=3',
      token,
    });
    const { items } = AirportListSchema.parse(await response.json());
    expect(items[0]).toMatchObject({
      code: 'LHR',
      city: 'London',
      countryCode: 'GB',
      timeZone: 'Europe/London',
    });
    expect(items).toHaveLength(3);
  });

  it('matches and names cities in the language of locale (additive), and refuses a malformed locale', async () => {
    const response = await signedFetch(stack.api.baseUrl, {
      path: '/v1/flights/airports?query=Londres&locale=es-ES&limit=2',
      token,
    });
    const { items } = AirportListSchema.parse(await response.json());
    expect(items.map(({ code, city, country }) => ({ code, city, country }))).toEqual([
      { code: 'LHR', city: 'Londres', country: 'Reino Unido' },
      { code: 'LGW', city: 'Londres', country: 'Reino Unido' },
    ]);
    const malformed = await signedFetch(stack.api.baseUrl, {
      path: '/v1/flights/airports?query=Londres&locale=not_a_locale',
      token,
    });
    expect(malformed.status).toBe(422);
  });
});
