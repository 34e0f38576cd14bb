import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoActionResultSchema } from '#shared/api/demo.ts';
import { GuestSessionStatusSchema } from '#shared/api/guest-session-status.ts';
import { UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { BookingsPageSchema } from '#shared/upstream/bookings.ts';
import { StayDestinationsResponseSchema } from '#shared/upstream/destinations.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { AirportListSchema, FlightSearchResponseSchema } from '#shared/upstream/flights.ts';
import { NotificationSchema, NotificationsPageSchema } from '#shared/upstream/notifications.ts';
import { ProfileSchema } from '#shared/upstream/profile.ts';
import { StayPropertyDetailsSchema } from '#shared/upstream/stays.ts';
import { SegmentDetailsSchema, TripDetailsSchema, TripsPageSchema } from '#shared/upstream/trips.ts';
import type { TestBrowser } from '../../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const SEARCH_QUOTA = 4;

interface ApiAnswer {
  status: number;
  headers: Headers;
  json: unknown;
}

async function api(browser: TestBrowser, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const response = await browser.fetch(path, {
    method,
    headers: {
      'x-requested-with': 'wayfare',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text === '' ? undefined : JSON.parse(text),
  };
}

function envelope(answer: ApiAnswer) {
  return ErrorEnvelopeSchema.parse(answer.json).error;
}

function isoDateInDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

const flightSearch = {
  itinerary: [{ origin: 'zrh', destination: 'JFK', date: isoDateInDays(30) }],
  passengers: { adults: 1 },
  cabinClass: 'economy',
};

describe('gateway routes over the real stand-ins', () => {
  let stack: GatewayStack;
  let alex: TestBrowser;

  beforeAll(async () => {
    stack = await startGatewayStack({
      bffEnv: { RATE_LIMIT_SEARCH_PER_MINUTE: String(SEARCH_QUOTA), DEMO_MODE: 'true' },
    });
    alex = await stack.signIn();
  });

  afterAll(async () => {
    await stack.close();
  });

  /** Upstream requests made for one browser request, found by the request id the BFF answered with. */
  function upstreamCallsFor(answer: ApiAnswer) {
    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    return stack.tap.seen.filter((request) => request.headers['x-request-id'] === requestId);
  }

  describe('update check', () => {
    it('answers a signed-out visitor with the latest version, signed upstream without a bearer', async () => {
      const answer = await api(stack.browser(), 'GET', '/api/app/update-check?currentVersion=0.0.1');
      expect(answer.status).toBe(200);
      expect(UpdateCheckSchema.parse(answer.json).updateAvailable).toBe(true);
      const [upstream] = upstreamCallsFor(answer);
      expect(upstream?.url).toBe('/v1/app/update-check?currentVersion=0.0.1');
      expect(upstream?.headers.authorization).toBeUndefined();
      expect(upstream?.headers['service-consumer']).toBe('wayfare-web');
    });

    it('rejects a malformed version with FIX_INPUT before anything goes upstream', async () => {
      const answer = await api(stack.browser(), 'GET', '/api/app/update-check?currentVersion=latest');
      expect(answer.status).toBe(422);
      expect(envelope(answer)).toMatchObject({
        code: 'VALIDATION_ERROR',
        recoveryAction: 'FIX_INPUT',
        details: [{ field: 'currentVersion', code: 'string_pattern_mismatch' }],
      });
      expect(upstreamCallsFor(answer)).toHaveLength(0);
    });
  });

  describe('profile', () => {
    it('reads the signed-in traveler’s profile', async () => {
      const answer = await api(alex, 'GET', '/api/profile');
      expect(answer.status).toBe(200);
      expect(ProfileSchema.parse(answer.json).travelerId).toBe(ALEX);
      expect(upstreamCallsFor(answer)[0]?.headers.authorization).toMatch(/^Bearer ey/);
    });

    it('changes fields and answers the updated profile', async () => {
      const answer = await api(alex, 'PATCH', '/api/profile', { homeAirport: 'zrh', bookingProfile: true });
      expect(answer.status).toBe(200);
      expect(ProfileSchema.parse(answer.json)).toMatchObject({ homeAirport: 'ZRH', bookingProfile: true });
    });

    it('rejects an unknown currency and an empty change with field details', async () => {
      const currency = await api(alex, 'PATCH', '/api/profile', { currency: 'ZZZ' });
      expect(currency.status).toBe(422);
      expect(envelope(currency).details).toEqual([
        expect.objectContaining({ field: 'currency', code: 'enum' }),
      ]);
      const empty = await api(alex, 'PATCH', '/api/profile', {});
      expect(envelope(empty)).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'body', code: 'missing' }],
      });
      expect([...upstreamCallsFor(currency), ...upstreamCallsFor(empty)]).toHaveLength(0);
    });

    it('answers 401 UNAUTHORIZED to a signed-out browser', async () => {
      const answer = await api(stack.browser(), 'GET', '/api/profile');
      expect(answer.status).toBe(401);
      expect(envelope(answer).code).toBe('UNAUTHORIZED');
    });
  });

  describe('flights', () => {
    it('searches flights and sends upstream exactly the validated body it signed', async () => {
      const answer = await api(alex, 'POST', '/api/flights/search', flightSearch);
      expect(answer.status).toBe(200);
      expect(FlightSearchResponseSchema.parse(answer.json).offers.length).toBeGreaterThan(0);
      const [upstream] = upstreamCallsFor(answer);
      expect(JSON.parse(upstream?.body.toString('utf8') ?? '')).toMatchObject({
        itinerary: [{ origin: 'ZRH', destination: 'JFK' }],
        passengers: { adults: 1 },
      });
    });

    it('names every failing field with a dotted path and never calls upstream for bad input', async () => {
      const answer = await api(alex, 'POST', '/api/flights/search', {
        itinerary: [{ origin: 'ZRH', destination: 'ZRH', date: 'tomorrow' }],
        passengers: { adults: 0 },
        cabinClass: 'luxury',
      });
      expect(answer.status).toBe(422);
      const fields = envelope(answer).details.map((detail) => `${detail.field}:${detail.code}`);
      expect(fields).toEqual(
        expect.arrayContaining([
          'itinerary.0.date:date_parsing',
          'passengers.adults:greater_than_equal',
          'cabinClass:enum',
        ]),
      );
      expect(upstreamCallsFor(answer)).toHaveLength(0);
    });

    it('rejects a body that is not JSON', async () => {
      const answer = await api(alex, 'POST', '/api/flights/search', '{"itinerary": [');
      expect(answer.status).toBe(422);
      expect(envelope(answer).details).toEqual([
        expect.objectContaining({ field: 'body', code: 'malformed_json' }),
      ]);
    });

    it('passes the travel API’s 503 on with its retry hint when the provider is down', async () => {
      await stack.admin('PUT', '/admin/faults', { providerDown: true });
      try {
        const answer = await api(alex, 'POST', '/api/flights/search', flightSearch);
        expect(answer.status).toBe(503);
        expect(envelope(answer)).toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
          recoveryAction: 'RETRY_LATER',
        });
        expect(answer.headers.get('retry-after')).toBe(String(envelope(answer).retryAfterSeconds));
      } finally {
        await stack.admin('DELETE', '/admin/faults');
      }
    });

    it('suggests airports for a partial name', async () => {
      const answer = await api(alex, 'GET', '/api/flights/airports?query=zur');
      expect(answer.status).toBe(200);
      expect(AirportListSchema.parse(answer.json).items.map((airport) => airport.code)).toContain('ZRH');
    });

    it("suggests airports by their names in the traveler's language, named in it", async () => {
      const answer = await api(alex, 'GET', '/api/flights/airports?query=Londres&locale=es-ES');
      expect(answer.status).toBe(200);
      expect(AirportListSchema.parse(answer.json).items[0]).toMatchObject({ code: 'LHR', city: 'Londres' });
    });

    it('limits flight searches per session with RATE_LIMIT_EXCEEDED and Retry-After', async () => {
      const sam = await stack.signIn('sam@wayfare.example', 'sam-demo');
      const statuses: number[] = [];
      let last: ApiAnswer | undefined;
      for (let attempt = 0; attempt <= SEARCH_QUOTA; attempt += 1) {
        last = await api(sam, 'POST', '/api/flights/search', flightSearch);
        statuses.push(last.status);
      }
      expect(statuses).toEqual([...Array<number>(SEARCH_QUOTA).fill(200), 429]);
      expect(envelope(last as ApiAnswer)).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
        recoveryAction: 'RETRY_LATER',
      });
      const wait = envelope(last as ApiAnswer).retryAfterSeconds;
      expect(wait).toBeGreaterThan(0);
      expect(last?.headers.get('retry-after')).toBe(String(wait));
      expect(upstreamCallsFor(last as ApiAnswer)).toHaveLength(0);
    });
  });

  describe('stays and bookings', () => {
    it('suggests stay destinations', async () => {
      const answer = await api(alex, 'GET', '/api/stays/destinations?query=par');
      expect(answer.status).toBe(200);
      expect(StayDestinationsResponseSchema.parse(answer.json).items.length).toBeGreaterThan(0);
      const spanish = await api(alex, 'GET', '/api/stays/destinations?query=Lisboa&locale=es-ES');
      expect(StayDestinationsResponseSchema.parse(spanish.json).items[0]).toMatchObject({
        type: 'city',
        cityId: 'lisbon-pt',
        name: 'Lisboa',
      });
    });

    it('describes a hotel by its autocomplete id, and answers an unknown one with 404', async () => {
      const answer = await api(alex, 'GET', '/api/stays/properties/paris-fr-h01');
      expect(answer.status).toBe(200);
      const hotel = StayPropertyDetailsSchema.parse(answer.json);
      expect(hotel).toMatchObject({ propertyId: 'paris-fr-h01', city: 'Paris', currency: 'EUR' });
      expect(hotel.address).toMatch(/^\d+ (rue|avenue|boulevard|place) .+, Paris$/);
      expect(hotel.image?.url).toMatch(/^data:image\/svg\+xml,/);
      expect(hotel.amenities.length).toBeGreaterThan(0);
      const unknown = await api(alex, 'GET', '/api/stays/properties/paris-fr-h99');
      expect(unknown.status).toBe(404);
      expect(envelope(unknown).code).toBe('RESOURCE_NOT_FOUND');
    });

    it('pages bookings with limit and offset until nextOffset is null', async () => {
      const first = BookingsPageSchema.parse((await api(alex, 'GET', '/api/bookings?limit=3')).json);
      expect(first.items).toHaveLength(3);
      expect(first.meta.nextOffset).toBe(3);
      const second = BookingsPageSchema.parse(
        (await api(alex, 'GET', `/api/bookings?limit=3&offset=3`)).json,
      );
      expect(second.items[0]?.bookingId).not.toBe(first.items[0]?.bookingId);
      const last = BookingsPageSchema.parse(
        (await api(alex, 'GET', `/api/bookings?limit=100&offset=${first.meta.totalCount - 1}`)).json,
      );
      expect(last.meta.nextOffset).toBeNull();
    });

    it('forwards the filters as the travel API reads them', async () => {
      const answer = await api(
        alex,
        'GET',
        '/api/bookings?status=confirmed,completed&vertical=flight&from=2020-01-01',
      );
      expect(answer.status).toBe(200);
      const page = BookingsPageSchema.parse(answer.json);
      expect(page.items.every((booking) => booking.vertical === 'flight')).toBe(true);
      expect(page.items.every((booking) => ['confirmed', 'completed'].includes(booking.status))).toBe(true);
      expect(upstreamCallsFor(answer)[0]?.url).toBe(
        '/v1/bookings/page?limit=20&offset=0&status=confirmed%2Ccompleted&vertical=flight&from=2020-01-01',
      );
    });

    it('rejects a page size over the maximum and an unknown status', async () => {
      const answer = await api(alex, 'GET', '/api/bookings?limit=500&status=lost');
      expect(answer.status).toBe(422);
      expect(envelope(answer).details.map((detail) => detail.field)).toEqual(['limit', 'status.0']);
    });
  });

  describe('trip segments', () => {
    it('reads a segment of one of the traveler’s trips', async () => {
      const page = BookingsPageSchema.parse(
        (await api(alex, 'GET', '/api/bookings?vertical=flight&limit=50')).json,
      );
      const booking = page.items.find((item) => item.tripId && item.segmentId);
      expect(booking).toBeDefined();
      const answer = await api(alex, 'GET', `/api/trips/${booking?.tripId}/segments/${booking?.segmentId}`);
      expect(answer.status).toBe(200);
      expect(SegmentDetailsSchema.parse(answer.json).segmentId).toBe(booking?.segmentId);
    });

    it('lists the traveler’s trips and reads one trip’s timeline', async () => {
      const page = TripsPageSchema.parse((await api(alex, 'GET', '/api/trips?limit=50')).json);
      expect(page.items.length).toBeGreaterThan(0);
      const [first] = page.items;
      const answer = await api(alex, 'GET', `/api/trips/${first?.tripId}`);
      expect(answer.status).toBe(200);
      const trip = TripDetailsSchema.parse(answer.json);
      expect(trip.tripId).toBe(first?.tripId);
      expect(trip.segments.length).toBe(first?.segmentKinds.length);
      const unknown = await api(alex, 'GET', `/api/trips/${crypto.randomUUID()}`);
      expect(unknown.status).toBe(404);
      expect(envelope(unknown).code).toBe('RESOURCE_NOT_FOUND');
    });

    it('answers 404 for a segment that is not the traveler’s and 422 for a malformed id', async () => {
      const unknown = await api(
        alex,
        'GET',
        `/api/trips/${crypto.randomUUID()}/segments/${crypto.randomUUID()}`,
      );
      expect(unknown.status).toBe(404);
      expect(envelope(unknown).code).toBe('RESOURCE_NOT_FOUND');
      const malformed = await api(alex, 'GET', '/api/trips/abc/segments/def');
      expect(malformed.status).toBe(422);
      expect(envelope(malformed).details.map((detail) => detail.field)).toEqual(['tripId', 'segmentId']);
    });
  });

  describe('notifications', () => {
    it('lists a new notification and marks it read', async () => {
      const created = await stack.admin('POST', '/admin/notifications', {
        traveler: ALEX,
        eventType: 'GATE_CHANGED',
        severity: 'info',
        title: 'Gate changed',
        body: 'Your flight now leaves from gate B12.',
      });
      expect(created.status).toBe(201);
      const { notification } = (await created.json()) as { notification: { id: string } };

      const list = NotificationsPageSchema.parse((await api(alex, 'GET', '/api/notifications?limit=5')).json);
      expect(list.items[0]?.id).toBe(notification.id);
      expect(list.items[0]?.readAt).toBeNull();

      const read = await api(alex, 'POST', `/api/notifications/${notification.id}/read`);
      expect(read.status).toBe(200);
      expect(NotificationSchema.parse(read.json).readAt).not.toBeNull();
    });

    it('marks every notification read at once', async () => {
      for (const title of ['Gate changed again', 'Check-in is open']) {
        await stack.admin('POST', '/admin/notifications', {
          traveler: ALEX,
          eventType: 'GATE_CHANGED',
          severity: 'info',
          title,
          body: 'Details in the app.',
        });
      }
      const before = NotificationsPageSchema.parse((await api(alex, 'GET', '/api/notifications')).json);
      expect(before.meta.unreadCount).toBeGreaterThanOrEqual(2);
      const answer = await api(alex, 'POST', '/api/notifications/read-all');
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ updatedCount: before.meta.unreadCount });
      const after = NotificationsPageSchema.parse((await api(alex, 'GET', '/api/notifications')).json);
      expect(after.meta.unreadCount).toBe(0);
    });

    it('answers 404 for a notification that does not exist', async () => {
      const answer = await api(alex, 'POST', `/api/notifications/${crypto.randomUUID()}/read`);
      expect(answer.status).toBe(404);
      expect(envelope(answer).code).toBe('RESOURCE_NOT_FOUND');
    });
  });

  describe('guest sessions', () => {
    it('starts a guest session for a signed-out visitor without showing the guest token', async () => {
      const visitor = stack.browser();
      const answer = await api(visitor, 'POST', '/api/guest-session');
      expect(answer.status).toBe(201);
      expect(GuestSessionStatusSchema.parse(answer.json).kind).toBe('guest');
      expect(JSON.stringify(answer.json)).not.toContain('wgs_');
      const session = await api(visitor, 'GET', '/api/session');
      expect(session.json).toMatchObject({ authenticated: true, kind: 'guest' });
    });

    it('refuses to replace a signed-in traveler’s session with a guest session', async () => {
      const answer = await api(alex, 'POST', '/api/guest-session');
      expect(answer.status).toBe(409);
      expect(envelope(answer).code).toBe('SESSION_CONFLICT');
      expect((await api(alex, 'GET', '/api/session')).json).toMatchObject({ kind: 'traveler' });
    });
  });

  describe('demo panel', () => {
    it('delays one of the traveler’s segments through the stand-in’s admin API', async () => {
      expect((await api(alex, 'GET', '/api/demo/status')).json).toEqual({ enabled: true });
      const answer = await api(alex, 'POST', '/api/demo/segment-delay', { minutes: 50 });
      expect(answer.status).toBe(200);
      const { segment } = DemoActionResultSchema.parse(answer.json);
      const read = await api(alex, 'GET', `/api/trips/${segment?.tripId}/segments/${segment?.segmentId}`);
      expect(SegmentDetailsSchema.parse(read.json).delayMinutes).toBeGreaterThanOrEqual(50);
    });

    it('raises a delay that breaks a connection in the traveler’s trip', async () => {
      const answer = await api(alex, 'POST', '/api/demo/segment-delay', { breaksConnection: true });
      expect(answer.status).toBe(200);
      const { segment } = DemoActionResultSchema.parse(answer.json);
      const trip = TripDetailsSchema.parse((await api(alex, 'GET', `/api/trips/${segment?.tripId}`)).json);
      expect(trip.status).toBe('DISRUPTED');
    });

    it('sets off expired offers for a while, for the signed-in traveler', async () => {
      const answer = await api(alex, 'POST', '/api/demo/expired-offer', { seconds: 5 });
      expect(answer.status).toBe(200);
      expect(DemoActionResultSchema.parse(answer.json).activeUntil).not.toBeNull();
      const read = await stack.admin('GET', `/admin/travelers/${ALEX}/faults`);
      expect(((await read.json()) as { offersExpired: boolean }).offersExpired).toBe(true);
      await stack.admin('DELETE', '/admin/faults');
    });

    it('announces an app update that the update check then reports', async () => {
      const answer = await api(alex, 'POST', '/api/demo/app-update', { latestVersion: '9.9.9' });
      expect(answer.status).toBe(200);
      const check = await api(alex, 'GET', '/api/app/update-check?currentVersion=1.0.0');
      expect(UpdateCheckSchema.parse(check.json)).toMatchObject({
        latestVersion: '9.9.9',
        updateAvailable: true,
      });
    });
  });

  it('stops the upstream call as soon as the browser goes away', async () => {
    await stack.admin('PUT', '/admin/faults', { latencyMs: 3_000 });
    try {
      const tab = new AbortController();
      const seenBefore = stack.tap.seen.length;
      const profileCall = () =>
        stack.tap.seen.slice(seenBefore).find((request) => request.url === '/v1/profile');
      const pending = alex
        .fetch('/api/profile', { headers: { 'x-requested-with': 'wayfare' }, signal: tab.signal })
        .catch((error: unknown) => error);
      await expect.poll(profileCall).toBeDefined();
      tab.abort();
      await pending;
      // The BFF hangs up on the travel API before its answer (3 s late) comes, and says why.
      await expect.poll(() => profileCall()?.abandoned).toBe(true);
      await expect
        .poll(() => stack.bffLogs.some((line) => line.includes('"code":"REQUEST_ABORTED"')))
        .toBe(true);
    } finally {
      await stack.admin('DELETE', '/admin/faults');
    }
  });

  it('answers unknown API paths with the 404 envelope', async () => {
    const answer = await api(alex, 'GET', '/api/does-not-exist');
    expect(answer.status).toBe(404);
    expect(envelope(answer).code).toBe('RESOURCE_NOT_FOUND');
  });
});
