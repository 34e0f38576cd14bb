import { beforeAll, describe, expect, it, vi } from 'vitest';
import { readSseStream, type SseMessage } from '#shared/sse.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { StayPropertyDestinationSchema, parseStayDestinations } from '#shared/upstream/destinations.ts';
import { GuestSessionSchema } from '#shared/upstream/guest-session.ts';
import {
  StayFareSchema,
  StayFaresDoneSchema,
  type StayFare,
  StaySearchDoneSchema,
  StaySearchProgressSchema,
  StayPropertyDetailsSchema,
  StaySearchPropertySchema,
  type StaySearchProperty,
} from '#shared/upstream/stays.ts';
import { addDays } from '../time-zones.ts';
import { signedFetch, type SignedRequest } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';
import { adminFetch } from '../notifications/test-support/admin-fetch.ts';
import { isSoldOut } from './quote-fares.ts';

const stack = travelApiWithIdentity({ env: { TRAVEL_API_STREAM_PACE_MS: '0' }, clearFaultsBeforeEach: true });
let token: string;

const today = new Date().toISOString().slice(0, 10);
const inDays = (days: number) => addDays(today, days);
const lisbon = {
  type: 'city',
  cityId: 'lisbon-pt',
  name: 'Lisbon',
  countryCode: 'PT',
  latitude: 38.77,
  longitude: -9.13,
};

beforeAll(async () => {
  token = await stack.identity.token();
});

const admin = (method: string, path: string, json?: unknown) =>
  adminFetch(stack.api.baseUrl, method, path, json);

function call(request: SignedRequest): Promise<Response> {
  return signedFetch(stack.api.baseUrl, { token, ...request });
}

async function events(response: Response): Promise<SseMessage[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const messages: SseMessage[] = [];
  for await (const message of readSseStream(response.body as ReadableStream<Uint8Array>))
    messages.push(message);
  return messages;
}

const dataOf = (message: SseMessage | undefined): unknown => JSON.parse(message?.data ?? 'null');

async function expectEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const envelope = ErrorEnvelopeSchema.parse(await response.json());
  expect(envelope.error.code).toBe(code);
  return envelope.error;
}

async function search(body: Record<string, unknown> = {}): Promise<StaySearchProperty[]> {
  const messages = await events(
    await call({
      path: '/v1/stays/search',
      json: {
        destination: lisbon,
        checkIn: inDays(30),
        checkOut: inDays(33),
        rooms: [{ adults: 2 }],
        ...body,
      },
    }),
  );
  return messages.filter((m) => m.event === 'property').map((m) => StaySearchPropertySchema.parse(dataOf(m)));
}

describe('POST /v1/stays/search', () => {
  it('streams each property with its searchSolutionId and propertyId (service UUIDs), progress, then done', async () => {
    const messages = await events(
      await call({
        path: '/v1/stays/search',
        json: { destination: lisbon, checkIn: inDays(30), checkOut: inDays(33), rooms: [{ adults: 2 }] },
      }),
    );
    const properties = messages
      .filter((m) => m.event === 'property')
      .map((m) => StaySearchPropertySchema.parse(dataOf(m)));
    expect(properties.length).toBeGreaterThanOrEqual(8);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const property of properties) {
      expect(property.searchSolutionId).toMatch(uuid);
      expect(property.propertyId).toMatch(uuid);
      expect(property.city).toBe('Lisbon');
    }
    expect(new Set(properties.map((p) => p.searchSolutionId)).size).toBe(properties.length);
    const progress = messages
      .filter((m) => m.event === 'progress')
      .map((m) => StaySearchProgressSchema.parse(dataOf(m)));
    expect(progress.at(-1)).toMatchObject({ received: properties.length, expected: properties.length });
    expect(messages.at(-1)?.event).toBe('done');
    expect(StaySearchDoneSchema.parse(dataOf(messages.at(-1)))).toMatchObject({
      propertyCount: properties.length,
    });
  });

  it('lists hotels without a lead-in price for a stay longer than the maximum nights', async () => {
    const max = stack.api.config.TRAVEL_API_MAX_NIGHTS;
    const properties = await search({ checkIn: inDays(5), checkOut: inDays(6 + max) });
    expect(properties.length).toBeGreaterThan(0);
    expect(properties.every((property) => property.priceFrom === null)).toBe(true);
  });

  it('searches a named property from autocomplete and yields just that property', async () => {
    const place = stack.api.app.hotels.destinations('lisbon', 3).find((item) => item.type === 'property');
    const properties = await search({ destination: place });
    expect(properties.map((property) => property.name)).toEqual([place?.name]);
  });

  it('keeps serving when a client walks away in the middle of a stream', async () => {
    const paced = await stack.startAnotherApi({ TRAVEL_API_STREAM_PACE_MS: '50' });
    try {
      const controller = new AbortController();
      const response = await signedFetch(paced.baseUrl, {
        token,
        path: '/v1/stays/search',
        json: { destination: lisbon, checkIn: inDays(30), checkOut: inDays(31), rooms: [{ adults: 1 }] },
      });
      const reader = readSseStream(response.body as ReadableStream<Uint8Array>, {
        signal: controller.signal,
      });
      expect((await reader.next()).value).toMatchObject({ event: 'property' });
      controller.abort();
      await reader.return(undefined);
      const again = await signedFetch(paced.baseUrl, { token, path: '/v1/stays/destinations?query=lisbon' });
      expect(again.status).toBe(200);
    } finally {
      await paced.close();
    }
  });

  it('rejects trip dates in the past with 422 VALIDATION_ERROR before any stream opens', async () => {
    const response = await call({
      path: '/v1/stays/search',
      json: { destination: lisbon, checkIn: inDays(-3), checkOut: inDays(2), rooms: [{ adults: 1 }] },
    });
    const error = await expectEnvelope(response, 422, 'VALIDATION_ERROR');
    expect(error.details).toEqual([expect.objectContaining({ field: 'checkIn', code: 'date_in_past' })]);
    expect(error.recoveryAction).toBe('FIX_INPUT');
  });

  it('rejects a check-out that is not after the check-in, naming the field', async () => {
    const response = await call({
      path: '/v1/stays/search',
      json: { destination: lisbon, checkIn: inDays(10), checkOut: inDays(10), rooms: [{ adults: 1 }] },
    });
    const error = await expectEnvelope(response, 422, 'VALIDATION_ERROR');
    expect(error.details.map((detail) => detail.field)).toEqual(['checkOut']);
  });

  it('rejects an unknown city with 422 VALIDATION_ERROR on destination.cityId', async () => {
    const response = await call({
      path: '/v1/stays/search',
      json: {
        destination: { ...lisbon, cityId: 'atlantis-xx' },
        checkIn: inDays(10),
        checkOut: inDays(12),
        rooms: [{ adults: 1 }],
      },
    });
    const error = await expectEnvelope(response, 422, 'VALIDATION_ERROR');
    expect(error.details[0]?.field).toBe('destination.cityId');
  });

  it('needs a traveler bearer token: 401 UNAUTHORIZED without one', async () => {
    const response = await signedFetch(stack.api.baseUrl, {
      path: '/v1/stays/search',
      json: { destination: lisbon, checkIn: inDays(10), checkOut: inDays(12), rooms: [{ adults: 1 }] },
    });
    await expectEnvelope(response, 401, 'UNAUTHORIZED');
  });

  it('answers 503 SERVICE_UNAVAILABLE while the provider is down', async () => {
    await admin('PUT', '/admin/faults', { providerDown: true });
    const response = await call({
      path: '/v1/stays/search',
      json: { destination: lisbon, checkIn: inDays(10), checkOut: inDays(12), rooms: [{ adults: 1 }] },
    });
    const error = await expectEnvelope(response, 503, 'SERVICE_UNAVAILABLE');
    expect(error.recoveryAction).toBe('RETRY_LATER');
  });

  it('ends with event: error PROVIDER_ERROR when the provider fails mid-stream', async () => {
    await admin('PUT', '/admin/faults', { providerErrorMidStream: true });
    const messages = await events(
      await call({
        path: '/v1/stays/search',
        json: { destination: lisbon, checkIn: inDays(10), checkOut: inDays(12), rooms: [{ adults: 1 }] },
      }),
    );
    expect(messages.map((m) => m.event)).toEqual(['property', 'error']);
    expect(ErrorEnvelopeSchema.parse(dataOf(messages[1])).error.code).toBe('PROVIDER_ERROR');
  });
});

describe('POST /v1/stays/fares', () => {
  const faresBody = (property: StaySearchProperty, overrides: Record<string, unknown> = {}) => ({
    searchSolutionId: property.searchSolutionId,
    propertyId: property.propertyId,
    checkIn: inDays(30),
    checkOut: inDays(33),
    rooms: [{ adults: 2 }],
    ...overrides,
  });

  async function bookableProperty(): Promise<StaySearchProperty> {
    const properties = await search();
    const property = properties.find((candidate) => candidate.priceFrom !== null);
    if (!property) throw new Error('every property is sold out');
    return property;
  }

  it('search-stream path: streams fare events for the property and ends with event: done', async () => {
    const property = await bookableProperty();
    const messages = await events(await call({ path: '/v1/stays/fares', json: faresBody(property) }));
    const fares = messages.filter((m) => m.event === 'fare').map((m) => StayFareSchema.parse(dataOf(m)));
    expect(fares.length).toBeGreaterThan(0);
    for (const fare of fares) {
      expect(fare).toMatchObject({
        propertyId: property.propertyId,
        searchSolutionId: property.searchSolutionId,
        solutionKey: property.solutionKey,
        nights: 3,
      });
    }
    expect(Math.min(...fares.map((fare) => fare.nightlyPrice))).toBe(property.priceFrom?.nightlyPrice);
    expect(messages.at(-1)?.event).toBe('done');
    expect(StayFaresDoneSchema.parse(dataOf(messages.at(-1)))).toEqual({ fareCount: fares.length });
  });

  it("prices in the currency asked for, with the hotel's own price beside it, on the search and the fares", async () => {
    const properties = await search({ currency: 'USD' });
    const property = properties.find((candidate) => candidate.priceFrom !== null);
    if (!property) throw new Error('every property is sold out');
    expect(property.priceFrom).toMatchObject({
      currency: 'USD',
      propertyPrice: { currency: 'EUR' },
    });
    const usd = property.priceFrom?.nightlyPrice ?? 0;
    const eur = property.priceFrom?.propertyPrice?.nightlyPrice ?? 0;
    expect(usd / eur).toBeCloseTo(1.08, 1);

    const faresIn = async (currency?: string) => {
      const messages = await events(
        await call({ path: '/v1/stays/fares', json: faresBody(property, currency ? { currency } : {}) }),
      );
      return messages.filter((m) => m.event === 'fare').map((m) => StayFareSchema.parse(dataOf(m)));
    };
    const [inUsd, inOwn] = [await faresIn('USD'), await faresIn()];
    expect(inUsd.map((fare) => fare.currency)).toEqual(inUsd.map(() => 'USD'));
    expect(inUsd.map((fare) => fare.propertyPrice)).toEqual(
      inOwn.map((fare) => ({
        nightlyPrice: fare.nightlyPrice,
        totalPrice: fare.totalPrice,
        currency: 'EUR',
      })),
    );
    expect(inUsd.map((fare) => fare.dueAtProperty?.currency)).toEqual(inUsd.map(() => 'EUR'));
    expect(inOwn.every((fare) => fare.currency === 'EUR' && fare.propertyPrice === undefined)).toBe(true);
    expect(new Set([...inUsd, ...inOwn].map((fare) => fare.fareId)).size).toBe(inUsd.length + inOwn.length);
    // The hotel's own currency asked for: nothing to convert.
    expect((await faresIn('EUR')).every((fare) => fare.propertyPrice === undefined)).toBe(true);
  });

  it('refuses a currency it does not quote in: 422 VALIDATION_ERROR on currency', async () => {
    const property = await bookableProperty();
    const error = await expectEnvelope(
      await call({ path: '/v1/stays/fares', json: faresBody(property, { currency: 'XYZ' }) }),
      422,
      'VALIDATION_ERROR',
    );
    expect(error.details.map((detail) => detail.field)).toEqual(['currency']);
  });

  it('direct-property path: a property from autocomplete prices without a prior search', async () => {
    const destinations = await call({ path: '/v1/stays/destinations?query=lisbon&limit=8' });
    expect(destinations.status).toBe(200);
    const items = parseStayDestinations(await destinations.json());
    expect(items[0]).toMatchObject({ type: 'city', cityId: 'lisbon-pt' });
    const property = items
      .filter((item) => item.type === 'property')
      .map((item) => StayPropertyDestinationSchema.parse(item))
      .find((item) => {
        const hotel = stack.api.app.hotels.byRawId(item.propertyId);
        return hotel !== undefined && !isSoldOut(stack.api.config.TRAVEL_API_SEED, hotel, inDays(40));
      });
    expect(property).toBeDefined();
    const messages = await events(
      await call({
        path: '/v1/stays/fares',
        json: { property, checkIn: inDays(40), checkOut: inDays(41), rooms: [{ adults: 1 }] },
      }),
    );
    const fares = messages.filter((m) => m.event === 'fare').map((m) => StayFareSchema.parse(dataOf(m)));
    expect(fares.length).toBeGreaterThan(0);
    expect(fares[0]).toMatchObject({ searchSolutionId: null, solutionKey: null, nights: 1 });
    expect(messages.at(-1)?.event).toBe('done');
  });

  it('every searched property carries its destination, and the direct-property path with it prices the same hotel', async () => {
    const properties = await search();
    expect(properties.length).toBeGreaterThanOrEqual(8);
    const faresOf = async (json: Record<string, unknown>) => {
      const messages = await events(await call({ path: '/v1/stays/fares', json }));
      expect(messages.at(-1)?.event).toBe('done');
      return messages.filter((m) => m.event === 'fare').map((m) => StayFareSchema.parse(dataOf(m)));
    };
    const offer = (fare: StayFare) => ({
      propertyId: fare.propertyId,
      roomName: fare.roomName,
      board: fare.board,
      totalPrice: fare.totalPrice,
      currency: fare.currency,
    });
    for (const property of properties) {
      const destination = StayPropertyDestinationSchema.parse(property.destination);
      expect(destination).toMatchObject({
        type: 'property',
        name: property.name,
        city: property.city,
        countryCode: property.countryCode,
        latitude: property.latitude,
        longitude: property.longitude,
      });
      const { searchSolutionId, propertyId, ...stay } = faresBody(property);
      const direct = await faresOf({ property: destination, ...stay });
      const fromSearch = await faresOf({ searchSolutionId, propertyId, ...stay });
      expect(direct.map(offer)).toEqual(fromSearch.map(offer));
      for (const fare of direct) {
        expect(fare).toMatchObject({
          propertyId: property.propertyId,
          searchSolutionId: null,
          solutionKey: null,
        });
      }
    }
    expect(new Set(properties.map((p) => p.destination?.propertyId)).size).toBe(properties.length);
    expect(properties.some((p) => p.priceFrom !== null)).toBe(true);
  });

  it('both paths at once: 422 UNPROCESSABLE_ENTITY', async () => {
    const property = await bookableProperty();
    const [place] = stack.api.app.hotels.destinations('lisbon', 2).filter((item) => item.type === 'property');
    const response = await call({ path: '/v1/stays/fares', json: faresBody(property, { property: place }) });
    const error = await expectEnvelope(response, 422, 'UNPROCESSABLE_ENTITY');
    expect(error.details).toEqual([]);
  });

  it('neither path: 422 UNPROCESSABLE_ENTITY, also with property null or only half of the search pair', async () => {
    const base = { checkIn: inDays(30), checkOut: inDays(31), rooms: [{ adults: 1 }] };
    for (const json of [base, { ...base, property: null }, { ...base, propertyId: crypto.randomUUID() }]) {
      await expectEnvelope(await call({ path: '/v1/stays/fares', json }), 422, 'UNPROCESSABLE_ENTITY');
    }
  });

  it('unknown search-stream identifiers: 410 OFFER_EXPIRED', async () => {
    const response = await call({
      path: '/v1/stays/fares',
      json: {
        searchSolutionId: crypto.randomUUID(),
        propertyId: crypto.randomUUID(),
        checkIn: inDays(30),
        checkOut: inDays(33),
        rooms: [{ adults: 2 }],
      },
    });
    const error = await expectEnvelope(response, 410, 'OFFER_EXPIRED');
    expect(error.recoveryAction).toBe('CHANGE_SELECTION');
  });

  it('search-stream identifiers past the session cache lifetime: 410 OFFER_EXPIRED', async () => {
    const shortLived = await stack.startAnotherApi({
      TRAVEL_API_STREAM_PACE_MS: '0',
      TRAVEL_API_SESSION_CACHE_SECONDS: '1',
    });
    try {
      const messages = await events(
        await signedFetch(shortLived.baseUrl, {
          token,
          path: '/v1/stays/search',
          json: { destination: lisbon, checkIn: inDays(30), checkOut: inDays(33), rooms: [{ adults: 2 }] },
        }),
      );
      const property = StaySearchPropertySchema.parse(dataOf(messages.find((m) => m.event === 'property')));
      const deadline = Date.now() + 5000;
      let status = 200;
      while (status !== 410 && Date.now() < deadline) {
        const response = await signedFetch(shortLived.baseUrl, {
          token,
          path: '/v1/stays/fares',
          json: faresBody(property),
        });
        status = response.status;
        await response.body?.cancel();
        if (status !== 410) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(410);
    } finally {
      await shortLived.close();
    }
  });

  it('dates, rooms or bookingProfile that differ from the search: 422 VALIDATION_ERROR naming each field', async () => {
    const property = await bookableProperty();
    const response = await call({
      path: '/v1/stays/fares',
      json: faresBody(property, { checkOut: inDays(34), rooms: [{ adults: 1 }], bookingProfile: true }),
    });
    const error = await expectEnvelope(response, 422, 'VALIDATION_ERROR');
    expect(error.details.map((detail) => [detail.field, detail.code])).toEqual([
      ['checkOut', 'equals_search'],
      ['rooms', 'equals_search'],
      ['bookingProfile', 'equals_search'],
    ]);
  });

  it('rooms derived from the search passengers are the rooms the fares call repeats', async () => {
    const [property] = await search({ rooms: undefined, passengers: { adults: 3, childrenAges: [6] } });
    const response = await call({
      path: '/v1/stays/fares',
      json: faresBody(property as StaySearchProperty, {
        rooms: [{ adults: 1 }, { adults: 2, childrenAges: [6] }],
      }),
    });
    const messages = await events(response);
    expect(messages.at(-1)?.event).toBe('done');
  });

  it('applies no past-date check: past dates on the direct-property path still stream', async () => {
    const place = stack.api.app.hotels.destinations('lisbon', 3).find((item) => item.type === 'property');
    const messages = await events(
      await call({
        path: '/v1/stays/fares',
        json: { property: place, checkIn: inDays(-20), checkOut: inDays(-18), rooms: [{ adults: 2 }] },
      }),
    );
    expect(messages.at(-1)?.event).toBe('done');
  });

  it('a property with no rates for the dates streams an empty result that ends with event: done', async () => {
    const hotel = stack.api.app.hotels.propertiesIn('lisbon-pt')[0];
    if (!hotel) throw new Error('no hotel');
    const soldOutDay = Array.from({ length: 400 }, (_, day) => inDays(day + 1)).find((date) =>
      isSoldOut(stack.api.config.TRAVEL_API_SEED, hotel, date),
    );
    const place = stack.api.app.hotels
      .destinations('lisbon', 20)
      .find((item) => item.type === 'property' && item.propertyId === hotel.rawId);
    const messages = await events(
      await call({
        path: '/v1/stays/fares',
        json: {
          property: place,
          checkIn: soldOutDay,
          checkOut: addDays(soldOutDay as string, 2),
          rooms: [{ adults: 2 }],
        },
      }),
    );
    expect(messages.map((m) => m.event)).toEqual(['done']);
    expect(dataOf(messages[0])).toEqual({ fareCount: 0 });
  });

  it('a stay over the configured maximum nights ends with event: error MAX_NIGHTS_EXCEEDED stating the maximum', async () => {
    const place = stack.api.app.hotels.destinations('lisbon', 3).find((item) => item.type === 'property');
    const max = stack.api.config.TRAVEL_API_MAX_NIGHTS;
    const messages = await events(
      await call({
        path: '/v1/stays/fares',
        json: { property: place, checkIn: inDays(5), checkOut: inDays(5 + max + 1), rooms: [{ adults: 2 }] },
      }),
    );
    expect(messages.map((m) => m.event)).toEqual(['error']);
    const error = ErrorEnvelopeSchema.parse(dataOf(messages[0])).error;
    expect(error.code).toBe('MAX_NIGHTS_EXCEEDED');
    expect(error.message).toContain(String(max));
  });

  it('a provider failure during the stream ends it with event: error PROVIDER_ERROR', async () => {
    const property = await bookableProperty();
    await admin('PUT', '/admin/faults', { providerErrorMidStream: true });
    const messages = await events(await call({ path: '/v1/stays/fares', json: faresBody(property) }));
    expect(messages.map((m) => m.event)).toEqual(['fare', 'error']);
    expect(ErrorEnvelopeSchema.parse(dataOf(messages[1])).error.code).toBe('PROVIDER_ERROR');
  });

  it('answers 503 SERVICE_UNAVAILABLE when the provider is unavailable', async () => {
    const property = await bookableProperty();
    await admin('PUT', '/admin/faults', { providerDown: true });
    await expectEnvelope(
      await call({ path: '/v1/stays/fares', json: faresBody(property) }),
      503,
      'SERVICE_UNAVAILABLE',
    );
  });

  it('answers 401 without a bearer or guest token', async () => {
    const property = await bookableProperty();
    const response = await signedFetch(stack.api.baseUrl, {
      path: '/v1/stays/fares',
      json: faresBody(property),
    });
    await expectEnvelope(response, 401, 'UNAUTHORIZED');
  });

  it('accepts a guest session token in place of a bearer token', async () => {
    const property = await bookableProperty();
    const guest = await signedFetch(stack.api.baseUrl, { method: 'POST', path: '/v1/guest-sessions' });
    expect(guest.status).toBe(201);
    const { guestToken } = GuestSessionSchema.parse(await guest.json());
    const messages = await events(
      await signedFetch(stack.api.baseUrl, {
        token: guestToken,
        path: '/v1/stays/fares',
        json: faresBody(property),
      }),
    );
    expect(messages.at(-1)?.event).toBe('done');
  });

  it('reads a body sent without Content-Type as JSON, the default', async () => {
    const property = await bookableProperty();
    const messages = await events(
      await call({
        path: '/v1/stays/fares',
        body: new TextEncoder().encode(JSON.stringify(faresBody(property))),
      }),
    );
    expect(messages.at(-1)?.event).toBe('done');
  });

  it('validates fields of the body: 422 VALIDATION_ERROR with one detail per failing field', async () => {
    const property = await bookableProperty();
    const response = await call({
      path: '/v1/stays/fares',
      json: faresBody(property, { checkIn: '2027-02-30', rooms: [], bookingProfile: 'yes' }),
    });
    const error = await expectEnvelope(response, 422, 'VALIDATION_ERROR');
    expect(error.details.map((detail) => detail.field).sort()).toEqual([
      'bookingProfile',
      'checkIn',
      'rooms',
    ]);
  });

  it('answers an unknown autocomplete property id with 404 RESOURCE_NOT_FOUND', async () => {
    const place = {
      type: 'property',
      propertyId: 'atlantis-xx-h01',
      name: 'Nowhere',
      city: 'Atlantis',
      countryCode: 'XX',
      latitude: 0,
      longitude: 0,
    };
    const response = await call({
      path: '/v1/stays/fares',
      json: { property: place, checkIn: inDays(3), checkOut: inDays(4), rooms: [{ adults: 1 }] },
    });
    await expectEnvelope(response, 404, 'RESOURCE_NOT_FOUND');
  });

  it('streams fares progressively, each after the first a pace apart, when a pace is configured', async () => {
    const paced = await stack.startAnotherApi({ TRAVEL_API_STREAM_PACE_MS: '40' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], fakeNodeBuiltins: true });
    try {
      const place = paced.app.hotels.destinations('lisbon', 20).find((item) => {
        const hotel = item.type === 'property' ? paced.app.hotels.byRawId(item.propertyId) : undefined;
        return hotel !== undefined && !isSoldOut(paced.config.TRAVEL_API_SEED, hotel, inDays(50));
      });
      const response = await signedFetch(paced.baseUrl, {
        token,
        path: '/v1/stays/fares',
        json: { property: place, checkIn: inDays(50), checkOut: inDays(52), rooms: [{ adults: 2 }] },
      });
      const messages = readSseStream(response.body as ReadableStream<Uint8Array>)[Symbol.asyncIterator]();
      const nextFare = async (): Promise<SseMessage | undefined> => {
        for (let next = await messages.next(); !next.done; next = await messages.next()) {
          if (next.value.event === 'fare') return next.value;
        }
        return undefined;
      };
      // The first fare goes out at once; each next one waits for a timer of the pace.
      expect(await nextFare()).toBeDefined();
      for (const ordinal of ['second', 'third']) {
        let arrived = false;
        const fare = nextFare().then((message) => {
          arrived = true;
          return message;
        });
        await vi.advanceTimersByTimeAsync(39);
        // A later call is answered meanwhile; the fare still waits.
        expect((await adminFetch(paced.baseUrl, 'GET', '/admin/faults')).status).toBe(200);
        expect(arrived, ordinal).toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        expect(await fare, ordinal).toBeDefined();
      }
      await messages.return?.(undefined);
    } finally {
      vi.useRealTimers();
      await paced.close();
    }
  });
});

describe('GET /v1/stays/properties/:propertyId', () => {
  it('describes a hotel by its autocomplete id: address, stars, guest score, amenities, picture, currency', async () => {
    const [property] = await search();
    const rawId = property?.destination?.propertyId ?? '';
    const response = await call({ method: 'GET', path: `/v1/stays/properties/${rawId}` });
    expect(response.status).toBe(200);
    const details = StayPropertyDetailsSchema.parse(await response.json());
    expect(details).toMatchObject({
      propertyId: rawId,
      name: property?.name,
      address: property?.address,
      stars: property?.stars,
      reviewScore: property?.reviewScore,
      amenities: property?.amenities,
      image: property?.image,
      currency: 'EUR',
      timeZone: 'Europe/Lisbon',
    });
    expect(details.address).toMatch(/^(Rua|Avenida) .+, \d+, Lisbon$/);
  });

  it('answers an unknown hotel with 404 RESOURCE_NOT_FOUND and a malformed id with 422', async () => {
    await expectEnvelope(
      await call({ method: 'GET', path: '/v1/stays/properties/lisbon-pt-h99' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectEnvelope(
      await call({ method: 'GET', path: '/v1/stays/properties/not%20an%20id' }),
      422,
      'VALIDATION_ERROR',
    );
  });
});

describe('GET /v1/stays/destinations', () => {
  it('autocompletes cities and named properties ready for the direct-property path', async () => {
    const response = await call({ path: '/v1/stays/destinations?query=Lis' });
    expect(response.status).toBe(200);
    const items = parseStayDestinations(await response.json());
    expect(items.length).toBeGreaterThan(1);
    expect(items.some((item) => item.type === 'property')).toBe(true);
  });

  it('rejects a one-letter query with 422 VALIDATION_ERROR on query', async () => {
    const error = await expectEnvelope(
      await call({ path: '/v1/stays/destinations?query=L' }),
      422,
      'VALIDATION_ERROR',
    );
    expect(error.details[0]?.field).toBe('query');
  });
});
