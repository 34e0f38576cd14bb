import { beforeAll, describe, expect, it } from 'vitest';
import { UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { BookingListSchema, BookingsPageSchema } from '#shared/upstream/bookings.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { AirportListSchema, FlightSearchResponseSchema } from '#shared/upstream/flights.ts';
import { ProfileSchema } from '#shared/upstream/profile.ts';
import { SegmentDetailsSchema } from '#shared/upstream/trips.ts';
import { addDays } from '../time-zones.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { TEST_ADMIN_TOKEN } from '../test-support/start-travel-api.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const JORDAN = '5f1c2a7e-0b1d-4c5e-9a01-000000000003';
const stack = travelApiWithIdentity({ env: { TRAVEL_API_RATE_LIMIT_SEARCH_MAX: '40' } });
let token: string;
const inDays = (days: number): string => addDays(new Date().toISOString().slice(0, 10), days);

beforeAll(async () => {
  token = await stack.identity.token();
});

async function envelope(
  response: Response,
): Promise<{ status: number; error: ReturnType<typeof ErrorEnvelopeSchema.parse>['error'] }> {
  return { status: response.status, error: ErrorEnvelopeSchema.parse(await response.json()).error };
}

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
    const { status, error } = await envelope(
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
    const { error } = await envelope(
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
    const missing = await envelope(
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
    const { status, error } = await envelope(
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
});

describe('errors are envelopes', () => {
  it('answers malformed JSON and a wrong content type with VALIDATION_ERROR details', async () => {
    const malformed = await envelope(
      await signedFetch(stack.api.baseUrl, {
        path: '/v1/flights/search',
        body: '{"itinerary":',
        token,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(malformed).toMatchObject({
      status: 422,
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'body', code: 'json_invalid' }] },
    });
    const wrongType = await envelope(
      await signedFetch(stack.api.baseUrl, {
        path: '/v1/flights/search',
        body: 'itinerary=LHR',
        token,
        headers: { 'content-type': 'text/plain' },
      }),
    );
    expect(wrongType).toMatchObject({
      status: 422,
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'content-type' }] },
    });
  });

  it('answers unknown routes with 404 RESOURCE_NOT_FOUND', async () => {
    expect((await envelope(await fetch(`${stack.api.baseUrl}/nowhere`))).error.code).toBe(
      'RESOURCE_NOT_FOUND',
    );
    expect(
      (await envelope(await signedFetch(stack.api.baseUrl, { path: '/v1/nowhere', token }))).status,
    ).toBe(404);
  });

  it('answers 429 RATE_LIMIT_EXCEEDED with retryAfterSeconds and Retry-After past the search quota', async () => {
    const other = await stack.identity.token({ sub: '5f1c2a7e-0b1d-4c5e-9a01-100000000008' });
    let last: Response | undefined;
    for (let i = 0; i < 41; i++) {
      last = await signedFetch(stack.api.baseUrl, {
        path: '/v1/flights/search',
        json: {
          itinerary: [{ origin: 'MAD', destination: 'BCN', date: inDays(5) }],
          passengers: { adults: 1 },
          cabinClass: 'economy',
        },
        token: other,
      });
      if (last.status === 429) break;
      await last.arrayBuffer();
    }
    expect(last?.status).toBe(429);
    const retryAfter = Number(last?.headers.get('retry-after'));
    const { error } = ErrorEnvelopeSchema.parse(await last?.json());
    expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', recoveryAction: 'RETRY_LATER' });
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(retryAfter).toBe(error.retryAfterSeconds);
  });
});

describe('profile', () => {
  it('returns the traveler profile with name and email from the token', async () => {
    const profile = ProfileSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/profile', token })).json(),
    );
    expect(profile).toMatchObject({
      travelerId: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
      email: 'alex@wayfare.example',
      name: 'Alex Morgan',
      bookingProfile: false,
    });
  });

  it('PATCH changes the given fields, keeps the others and persists', async () => {
    const response = await signedFetch(stack.api.baseUrl, {
      method: 'PATCH',
      path: '/v1/profile',
      json: { homeAirport: 'zrh', currency: 'CHF', bookingProfile: true },
      token,
    });
    expect(response.status).toBe(200);
    const again = ProfileSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/profile', token })).json(),
    );
    expect(again).toMatchObject({
      homeAirport: 'ZRH',
      currency: 'CHF',
      bookingProfile: true,
      name: 'Alex Morgan',
    });
  });

  it('PATCH rejects an empty change, an unknown airport and an unknown currency', async () => {
    const patch = (json: unknown): Promise<Response> =>
      signedFetch(stack.api.baseUrl, { method: 'PATCH', path: '/v1/profile', json, token });
    expect((await envelope(await patch({}))).status).toBe(422);
    expect((await envelope(await patch({ homeAirport: 'QQQ' }))).error.details[0]).toMatchObject({
      field: 'homeAirport',
      code: 'unknown_airport',
    });
    expect((await envelope(await patch({ currency: 'ZZZ' }))).error.details[0]).toMatchObject({
      field: 'currency',
      code: 'enum',
    });
  });
});

describe('bookings', () => {
  it('GET /v1/bookings returns the legacy plain array', async () => {
    const body = (await (
      await signedFetch(stack.api.baseUrl, { path: '/v1/bookings', token })
    ).json()) as unknown;
    expect(Array.isArray(body)).toBe(true);
    const bookings = BookingListSchema.parse(body);
    const verticals = new Set(bookings.map((booking) => booking.vertical));
    expect(verticals.has('stay')).toBe(true);
    expect(verticals.has('flight') || verticals.has('rail')).toBe(true);
    expect(bookings.some((booking) => booking.status === 'confirmed')).toBe(true);
  });

  it('pages the long history with limit and offset until nextOffset is null, with a stable totalCount', async () => {
    const jordan = await stack.identity.token({
      sub: JORDAN,
      email: 'jordan@wayfare.example',
      name: 'Jordan Lee',
    });
    const seen = new Set<string>();
    let offset: number | null = 0;
    let total = -1;
    while (offset !== null) {
      const page = BookingsPageSchema.parse(
        await (
          await signedFetch(stack.api.baseUrl, {
            path: `/v1/bookings/page?limit=50&offset=${offset}`,
            token: jordan,
          })
        ).json(),
      );
      if (total === -1) total = page.meta.totalCount;
      expect(page.meta.totalCount).toBe(total);
      expect(page.meta.pageSize).toBe(50);
      for (const item of page.items) seen.add(item.bookingId);
      offset = page.meta.nextOffset;
    }
    expect(total).toBeGreaterThanOrEqual(120);
    expect(seen.size).toBe(total);
  });

  it('filters by status, vertical and date bounds in both operations', async () => {
    const from = inDays(-30);
    const to = inDays(60);
    const query = `status=confirmed,pending&vertical=flight&from=${from}&to=${to}`;
    const list = BookingListSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: `/v1/bookings?${query}`, token })).json(),
    );
    const page = BookingsPageSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: `/v1/bookings/page?${query}`, token })).json(),
    );
    expect(page.meta.totalCount).toBe(list.length);
    for (const booking of list) {
      expect(['confirmed', 'pending']).toContain(booking.status);
      expect(booking.vertical).toBe('flight');
      expect(booking.startDate >= from && booking.startDate <= to).toBe(true);
    }
  });

  it('rejects a limit over the maximum, a bad status and inverted date bounds', async () => {
    const bad = async (query: string): Promise<string[]> =>
      (
        await envelope(await signedFetch(stack.api.baseUrl, { path: `/v1/bookings/page?${query}`, token }))
      ).error.details.map((detail) => `${detail.field}:${detail.code}`);
    expect(await bad('limit=101')).toEqual(['limit:less_than_equal']);
    expect(await bad('status=lost')).toEqual(['status.0:enum']);
    expect(await bad('from=2026-05-01&to=2026-04-01')).toEqual(['to:greater_than_equal']);
  });
});

describe('trips and update check', () => {
  it('GET /v1/trips/:tripId/segments/:segmentId returns scheduled and estimated times and live status', async () => {
    const bookings = BookingListSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/bookings?vertical=flight', token })).json(),
    );
    const booking = bookings.find((item) => item.tripId && item.segmentId);
    const response = await signedFetch(stack.api.baseUrl, {
      path: `/v1/trips/${booking?.tripId}/segments/${booking?.segmentId}`,
      token,
    });
    const segment = SegmentDetailsSchema.parse(await response.json());
    expect(segment).toMatchObject({ segmentId: booking?.segmentId, kind: 'flight', delayMinutes: 0 });
    expect(segment.estimatedDeparture).toBe(segment.scheduledDeparture);
  });

  it('hides segments of other travelers behind 404', async () => {
    const bookings = BookingListSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/bookings', token })).json(),
    );
    const booking = bookings.find((item) => item.tripId && item.segmentId);
    const someoneElse = await stack.identity.token({ sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000002' });
    const response = await signedFetch(stack.api.baseUrl, {
      path: `/v1/trips/${booking?.tripId}/segments/${booking?.segmentId}`,
      token: someoneElse,
    });
    expect((await envelope(response)).status).toBe(404);
  });

  it('announces a new version through the admin API', async () => {
    await fetch(`${stack.api.baseUrl}/admin/app-release`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ latestVersion: '2.1.0', minimumVersion: '1.5.0', releaseNotes: 'Faster fares' }),
    });
    const check = UpdateCheckSchema.parse(
      await (
        await signedFetch(stack.api.baseUrl, { path: '/v1/app/update-check?currentVersion=1.4.0' })
      ).json(),
    );
    expect(check).toMatchObject({
      latestVersion: '2.1.0',
      updateAvailable: true,
      updateRequired: true,
      releaseNotes: 'Faster fares',
    });
  });
});
