import { describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { FlightSearchResponseSchema } from '#shared/upstream/flights.ts';
import { adminFetch } from '../notifications/test-support/admin-fetch.ts';
import { signedFetch, type SignedRequest } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';
import { addDays } from '../time-zones.ts';

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const SAM = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';
const stack = travelApiWithIdentity({
  env: { TRAVEL_API_STREAM_PACE_MS: '0', TRAVEL_API_LOG_LEVEL: 'error' },
  clearFaultsBeforeEach: true,
});

const date = addDays(new Date().toISOString().slice(0, 10), 60);
const flightSearch = {
  path: '/v1/flights/search',
  json: {
    itinerary: [{ origin: 'LHR', destination: 'CDG', date }],
    passengers: { adults: 1 },
    cabinClass: 'economy',
  },
};

async function call(sub: string, request: SignedRequest): Promise<Response> {
  return signedFetch(stack.api.baseUrl, { ...request, token: await stack.identity.token({ sub }) });
}

const armFor = (travelerId: string, faults: Record<string, unknown>) =>
  adminFetch(stack.api.baseUrl, 'PUT', `/admin/travelers/${travelerId}/faults`, faults);

async function errorCode(response: Response): Promise<string> {
  return ErrorEnvelopeSchema.parse(await response.json()).error.code;
}

describe('faults of one traveler (PUT /admin/travelers/:travelerId/faults)', () => {
  it('takes the providers down for that traveler’s requests only', async () => {
    const armed = await armFor(SAM, { providerDown: true, durationSeconds: 60 });
    expect(armed.status).toBe(200);
    expect(await armed.json()).toMatchObject({ providerDown: true, offersExpired: false });

    const samSearch = await call(SAM, flightSearch);
    expect(samSearch.status).toBe(503);
    expect(await samSearch.json()).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 30 },
    });
    const samStays = await call(SAM, { path: '/v1/stays/destinations?query=lisbon' });
    expect(samStays.status).toBe(503);

    expect((await call(ALEX, flightSearch)).status).toBe(200);
    expect((await call(ALEX, { path: '/v1/stays/destinations?query=lisbon' })).status).toBe(200);
    expect(await (await adminFetch(stack.api.baseUrl, 'GET', '/admin/faults')).json()).toMatchObject({
      providerDown: false,
    });
  });

  it('expires offers for that traveler only', async () => {
    const alexSearch = await call(ALEX, flightSearch);
    const [offer] = FlightSearchResponseSchema.parse(await alexSearch.json()).offers;
    const path = `/v1/offers/${offer!.offerId}/price-check`;
    await armFor(SAM, { offersExpired: true, durationSeconds: 60 });

    expect(await errorCode(await call(SAM, { method: 'POST', path }))).toBe('OFFER_EXPIRED');
    expect((await call(ALEX, { method: 'POST', path })).status).toBe(200);
  });

  it('limits that traveler’s requests, and no one else’s, to the lever’s quota', async () => {
    await armFor(SAM, { rateLimitMax: 1, rateLimitWindowSeconds: 30, durationSeconds: 30 });

    expect((await call(SAM, { path: '/v1/profile' })).status).toBe(200);
    const refused = await call(SAM, { path: '/v1/profile' });
    expect(refused.status).toBe(429);
    const { error } = ErrorEnvelopeSchema.parse(await refused.json());
    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect((await call(ALEX, { path: '/v1/profile' })).status).toBe(200);
    const guest = await signedFetch(stack.api.baseUrl, { method: 'POST', path: '/v1/guest-sessions' });
    expect(guest.status).toBe(201);
  });

  it('adds to everyone’s faults, which still reach every traveler', async () => {
    await armFor(SAM, { offersExpired: true });
    await adminFetch(stack.api.baseUrl, 'PUT', '/admin/faults', { providerDown: true, rateLimitMax: 1 });
    for (const sub of [SAM, ALEX])
      expect(await errorCode(await call(sub, flightSearch))).toBe('SERVICE_UNAVAILABLE');
    for (const sub of [SAM, ALEX])
      expect(await errorCode(await call(sub, flightSearch))).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('reads them back, clears them with everyone’s, and takes only the faults one traveler can meet', async () => {
    await armFor(SAM, { offersExpired: true });
    const read = await adminFetch(stack.api.baseUrl, 'GET', `/admin/travelers/${SAM}/faults`);
    expect(await read.json()).toEqual({
      providerDown: false,
      offersExpired: true,
      rateLimitMax: null,
      rateLimitWindowSeconds: null,
    });
    await adminFetch(stack.api.baseUrl, 'DELETE', '/admin/faults');
    const cleared = await adminFetch(stack.api.baseUrl, 'GET', `/admin/travelers/${SAM}/faults`);
    expect(await cleared.json()).toMatchObject({ offersExpired: false });

    const stackWide = await armFor(SAM, { latencyMs: 5_000 });
    expect(stackWide.status).toBe(422);
    expect(await stackWide.json()).toMatchObject({
      error: { details: [{ field: 'latencyMs', code: 'extra_forbidden' }] },
    });
    expect((await armFor('not-a-traveler', { providerDown: true })).status).toBe(422);
  });
});
