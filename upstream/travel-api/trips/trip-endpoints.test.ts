import { beforeAll, describe, expect, it } from 'vitest';
import { BookingListSchema } from '#shared/upstream/bookings.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { SegmentDetailsSchema, TripDetailsSchema, TripsPageSchema } from '#shared/upstream/trips.ts';
import { envelopeOf } from '../test-support/envelope-of.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { TEST_ADMIN_TOKEN } from '../test-support/start-travel-api.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const SAM = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';
const JORDAN = '5f1c2a7e-0b1d-4c5e-9a01-000000000003';
const stack = travelApiWithIdentity();
let token: string;

beforeAll(async () => {
  token = await stack.identity.token();
});

async function tripsPage(sub: string, query = ''): Promise<ReturnType<typeof TripsPageSchema.parse>> {
  const response = await signedFetch(stack.api.baseUrl, {
    path: `/v1/trips/page${query}`,
    token: await stack.identity.token({ sub }),
  });
  expect(response.status).toBe(200);
  return TripsPageSchema.parse(await response.json());
}

async function trip(sub: string, tripId: string): Promise<Response> {
  return signedFetch(stack.api.baseUrl, {
    path: `/v1/trips/${tripId}`,
    token: await stack.identity.token({ sub }),
  });
}

async function simulate(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${stack.api.baseUrl}/admin/simulate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('GET /v1/trips/page', () => {
  it('lists the traveler’s trips earliest first in the page envelope, with places, kinds and status', async () => {
    const page = await tripsPage(JORDAN, '?limit=100');
    expect(page.meta).toMatchObject({ totalCount: 40, pageSize: 100, nextOffset: null });
    expect(page.items).toHaveLength(40);
    const starts = page.items.map((item) => item.startDate);
    expect(starts).toEqual([...starts].sort());
    for (const item of page.items) {
      expect(item.cities.length).toBeGreaterThan(0);
      expect(item.segmentKinds).toContain('stay');
      expect(['ON_TRACK', 'DISRUPTED', 'CANCELLED', 'COMPLETED']).toContain(item.status);
    }
  });

  it('pages with limit and offset', async () => {
    const first = await tripsPage(JORDAN, '?limit=15');
    const second = await tripsPage(JORDAN, `?limit=15&offset=${first.meta.nextOffset}`);
    expect(first.meta.nextOffset).toBe(15);
    expect(second.items[0]?.tripId).not.toBe(first.items[0]?.tripId);
    expect(new Set([...first.items, ...second.items].map((item) => item.tripId)).size).toBe(30);
  });

  it('refuses a limit over 100 with the validation envelope', async () => {
    const response = await signedFetch(stack.api.baseUrl, {
      path: '/v1/trips/page?limit=101',
      token: await stack.identity.token({ sub: SAM }),
    });
    expect(response.status).toBe(422);
    expect(ErrorEnvelopeSchema.parse(await response.json()).error.code).toBe('VALIDATION_ERROR');
  });
});

describe('GET /v1/trips/:tripId', () => {
  it('returns the trip with every segment in timeline order; stays and cars carry an address', async () => {
    const [first] = (await tripsPage(SAM)).items;
    const response = await trip(SAM, first!.tripId);
    expect(response.status).toBe(200);
    const details = TripDetailsSchema.parse(await response.json());
    expect(details.segments.map((segment) => segment.kind)).toEqual(details.segmentKinds);
    const departures = details.segments.map((segment) => Date.parse(segment.scheduledDeparture));
    expect(departures).toEqual([...departures].sort((a, b) => a - b));
    const stay = details.segments.find((segment) => segment.kind === 'stay');
    expect(stay?.address).toMatch(new RegExp(`\\d.*, ${stay?.destination.city}$`));
    expect(
      details.segments.find((segment) => segment.kind === 'flight' || segment.kind === 'rail')?.address,
    ).toBeNull();
  });

  it('hides another traveler’s trip behind 404', async () => {
    const [first] = (await tripsPage(SAM)).items;
    const response = await trip(ALEX, first!.tripId);
    expect(response.status).toBe(404);
    expect(ErrorEnvelopeSchema.parse(await response.json()).error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('needs the consumer signature like every /v1 call', async () => {
    const [first] = (await tripsPage(SAM)).items;
    const response = await fetch(`${stack.api.baseUrl}/v1/trips/${first!.tripId}`, {
      headers: { authorization: `Bearer ${await stack.identity.token({ sub: SAM })}` },
    });
    expect(response.status).toBe(401);
  });
});

describe('a delay that breaks a connection (POST /admin/simulate breaksConnection)', () => {
  it('delays a flight or train until it arrives after what follows it, and the trip reads DISRUPTED', async () => {
    const response = await simulate({ traveler: ALEX, type: 'SEGMENT_DELAYED', breaksConnection: true });
    expect(response.status).toBe(201);
    const { segment } = (await response.json()) as {
      segment: { tripId: string; segmentId: string; estimatedArrival: string; delayMinutes: number };
    };
    expect(segment.delayMinutes).toBeGreaterThan(0);
    const details = TripDetailsSchema.parse(await (await trip(ALEX, segment.tripId)).json());
    expect(details.status).toBe('DISRUPTED');
    expect(details.disruptedSegments).toBeGreaterThanOrEqual(1);
    const index = details.segments.findIndex((candidate) => candidate.segmentId === segment.segmentId);
    const next = details.segments[index + 1]!;
    const deadline =
      next.kind === 'stay'
        ? Date.parse(`${next.scheduledDeparture.slice(0, 10)}T00:00:00${next.scheduledDeparture.slice(19)}`) +
          86_400_000
        : Date.parse(next.estimatedDeparture);
    expect(Date.parse(segment.estimatedArrival)).toBeGreaterThan(deadline);
  });
});

describe('segments', () => {
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
    expect((await envelopeOf(response)).status).toBe(404);
  });
});
