import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { signedHeaders } from '#shared/upstream/sign-request.ts';
import { TEST_CONSUMER } from './test-support/start-travel-api.ts';
import { travelApiWithIdentity } from './test-support/travel-api-with-identity.ts';

const SEGMENT = '00000000-0000-4000-8000-000000000000';
const ENDPOINTS: readonly { method: string; path: string }[] = [
  { method: 'POST', path: '/v1/flights/search' },
  { method: 'GET', path: '/v1/flights/airports' },
  { method: 'GET', path: '/v1/profile' },
  { method: 'PATCH', path: '/v1/profile' },
  { method: 'GET', path: '/v1/app/update-check' },
  { method: 'GET', path: '/v1/bookings' },
  { method: 'GET', path: '/v1/bookings/page' },
  { method: 'POST', path: '/v1/bookings' },
  { method: 'GET', path: `/v1/bookings/${SEGMENT}` },
  { method: 'POST', path: `/v1/bookings/${SEGMENT}/cancel` },
  { method: 'GET', path: `/v1/booking-requests/${SEGMENT}` },
  { method: 'POST', path: `/v1/offers/${SEGMENT}/price-check` },
  { method: 'GET', path: '/v1/me/payment-methods' },
  { method: 'GET', path: `/v1/trips/${SEGMENT}/segments/${SEGMENT}` },
  { method: 'POST', path: '/v1/guest-sessions' },
  { method: 'POST', path: '/v1/stays/search' },
  { method: 'POST', path: '/v1/stays/fares' },
  { method: 'GET', path: '/v1/stays/destinations' },
  { method: 'GET', path: '/v1/stays/properties/lisbon-pt-h01' },
  { method: 'GET', path: '/v1/me/notifications' },
  { method: 'GET', path: '/v1/me/notifications/stream' },
  { method: 'POST', path: `/v1/me/notifications/${SEGMENT}/read` },
  { method: 'DELETE', path: '/v1/profile' },
  { method: 'GET', path: '/v1/../admin/faults' },
];

const stack = travelApiWithIdentity({
  env: { TRAVEL_API_RATE_LIMIT_MAX: '100000', TRAVEL_API_RATE_LIMIT_SEARCH_MAX: '100000' },
});
let validToken: string;
beforeAll(async () => {
  validToken = await stack.identity.token();
});

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const AIRPORTS = ['LHR', 'JFK', 'SYD', 'GKA', 'YXU', 'MAD', 'BCN', 'ZRH', 'lhr', 'QQQ'];
const isoDate = fc
  .integer({ min: -400, max: 400 })
  .map((days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10));
const flightSearch = fc
  .record({
    itinerary: fc.array(
      fc.record({
        origin: fc.constantFrom(...AIRPORTS),
        destination: fc.constantFrom(...AIRPORTS),
        date: isoDate,
      }),
      { minLength: 1, maxLength: 4 },
    ),
    passengers: fc.record(
      {
        adults: fc.integer({ min: -1, max: 10 }),
        children: fc.integer({ min: 0, max: 9 }),
        infants: fc.integer({ min: 0, max: 3 }),
      },
      { requiredKeys: ['adults'] },
    ),
    cabinClass: fc.constantFrom('economy', 'premium_economy', 'business', 'first'),
    currency: fc.constantFrom('EUR', 'JPY', 'GBP', 'ZZZ'),
  })
  .map((value) => JSON.stringify(value));
const body = fc.oneof(
  fc.constant(undefined),
  flightSearch,
  jsonValue.map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  fc
    .record({
      itinerary: fc.array(
        fc.record({
          origin: fc.string({ maxLength: 4 }),
          destination: fc.constantFrom('LHR', 'JFK', 'x'),
          date: fc.string({ maxLength: 12 }),
        }),
        { maxLength: 3 },
      ),
      passengers: fc.record({ adults: fc.oneof(fc.integer(), fc.double(), fc.string()) }),
      cabinClass: fc.constantFrom('economy', 'first', '', 'x'),
      checkIn: fc.string({ maxLength: 12 }),
      searchSolutionId: fc.uuid(),
      rooms: fc.array(jsonValue, { maxLength: 2 }),
    })
    .map((value) => JSON.stringify(value)),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom(
        'limit',
        'offset',
        'status',
        'vertical',
        'from',
        'to',
        'query',
        'before',
        'currentVersion',
        'x',
      ),
      fc.string({ maxLength: 20 }),
      { maxKeys: 4 },
    )
    .map((entries) => `?${new URLSearchParams(entries).toString()}`),
  fc.string({ maxLength: 30 }).map((text) => `?${encodeURIComponent(text)}=%zz${text}`),
);
const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constant('valid'),
  fc.string({ maxLength: 60 }).map((text) => `Bearer ${text}`),
  fc.constant('Bearer wgs_unknown'),
  fc.string({ maxLength: 40 }),
);
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  '',
);
const signing = fc.constantFrom('valid', 'valid', 'valid', 'none', 'stale', 'garbage');

/** A non-2xx answer: the envelope, no stack trace, and no 5xx but a documented 503 SERVICE_UNAVAILABLE. */
async function expectDocumentedError(response: Response): Promise<void> {
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
  const envelope = ErrorEnvelopeSchema.parse(JSON.parse(text));
  if (response.status >= 500) {
    expect(response.status).toBe(503);
    expect(envelope.error.code).toBe('SERVICE_UNAVAILABLE');
  }
}

describe('every endpoint under random bodies and headers', () => {
  it('never answers a 5xx other than a documented 503, always with an envelope and no stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        body,
        query,
        authorization,
        contentType,
        signing,
        async (endpoint, payload, search, auth, type, sign) => {
          const headers: Record<string, string> = { accept: 'application/json, text/event-stream' };
          if (sign !== 'none') {
            const signed = signedHeaders({
              consumer: TEST_CONSUMER.slug,
              secret: TEST_CONSUMER.secret,
              method: endpoint.method,
              path: endpoint.path,
              body: payload,
              now: sign === 'stale' ? Date.now() - 3_600_000 : Date.now(),
            });
            Object.assign(headers, signed);
            if (sign === 'garbage') headers['Service-Signature'] = 'garbage';
          }
          if (auth !== undefined) headers.authorization = auth === 'valid' ? `Bearer ${validToken}` : auth;
          if (type !== undefined && payload !== undefined) headers['content-type'] = type;
          const controller = new AbortController();
          const response = await fetch(`${stack.api.baseUrl}${endpoint.path}${search}`, {
            method: endpoint.method,
            headers,
            signal: controller.signal,
            ...(payload === undefined || endpoint.method === 'GET'
              ? {}
              : { body: typeof payload === 'string' ? payload : new Uint8Array(payload) }),
          });
          if (response.ok) {
            controller.abort();
            return;
          }
          await expectDocumentedError(response);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps that promise for well-signed, authenticated JSON of every shape on the operations that take a body', async () => {
    const writes = ENDPOINTS.filter((endpoint) => endpoint.method === 'POST' || endpoint.method === 'PATCH');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        fc.oneof(
          flightSearch,
          jsonValue.map((value) => JSON.stringify(value)),
        ),
        async (endpoint, payload) => {
          const response = await fetch(`${stack.api.baseUrl}${endpoint.path}`, {
            method: endpoint.method,
            headers: {
              ...signedHeaders({
                consumer: TEST_CONSUMER.slug,
                secret: TEST_CONSUMER.secret,
                method: endpoint.method,
                path: endpoint.path,
                body: payload,
              }),
              authorization: `Bearer ${validToken}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: payload,
          });
          if (response.ok) {
            await response.body?.cancel();
            return;
          }
          await expectDocumentedError(response);
        },
      ),
      { numRuns: 150 },
    );
  });
});
