import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingDetailsSchema, type BookingDetails } from '#shared/api/booking-operations.ts';
import { RebookingSchema, type RebookingRequest } from '#shared/api/rebooking.ts';
import { BookingsPageSchema } from '#shared/upstream/bookings.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { FlightSearchResponseSchema, type FlightOffer } from '#shared/upstream/flights.ts';
import { NotificationsPageSchema } from '#shared/upstream/notifications.ts';
import { TripDetailsSchema } from '#shared/upstream/trips.ts';
import { api, type ApiAnswer } from '../../test-support/json-call.ts';
import type { TestBrowser } from '../../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';

/** Long enough for a flight search on a loaded machine; the timeout test holds a create longer. */
const UPSTREAM_TIMEOUT_MS = 5000;

const envelope = (answer: ApiAnswer) => ErrorEnvelopeSchema.parse(answer.json).error;

/** A traveler's upcoming flight, its trip and the flights that could replace it the same day. */
interface Broken {
  browser: TestBrowser;
  old: BookingDetails;
  offers: FlightOffer[];
  /** How many upcoming flight bookings stand before the rebooking. */
  confirmedFlights: number;
}

describe('POST /api/rebookings over the real stand-ins', () => {
  let stack: GatewayStack;
  let travelers = 900;

  beforeAll(async () => {
    stack = await startGatewayStack({
      bffEnv: {
        DEMO_MODE: 'true',
        UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
        REBOOKING_CANCEL_RETRY_MS: '100',
      },
    });
  }, 60_000);

  afterAll(async () => {
    await stack.close();
  });

  const upstreamCreates = (createKey?: string) =>
    stack.tap.seen.filter(
      (request) =>
        request.method === 'POST' &&
        request.url === '/v1/bookings' &&
        (createKey === undefined || request.headers['idempotency-key'] === createKey),
    );
  const createKeyOf = (bookingId: string) =>
    stack.tap.seen.find(
      (request) =>
        request.method === 'POST' &&
        request.url === '/v1/bookings' &&
        request.body.toString().includes(`"replacesBookingId":"${bookingId}"`),
    )?.headers['idempotency-key'] as string | undefined;

  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const confirmedFlights = async (browser: TestBrowser) =>
    BookingsPageSchema.parse(
      (await api(browser, 'GET', `/api/bookings?status=confirmed&vertical=flight&from=${tomorrow()}`)).json,
    ).meta.totalCount;

  /** A fresh traveler's last upcoming flight booking, and the other flights of its route that day. */
  async function brokenLeg(): Promise<Broken> {
    travelers += 1;
    const browser = await stack.signIn(`traveler${travelers}@wayfare.test`, 'test-pass');
    const page = BookingsPageSchema.parse(
      (await api(browser, 'GET', `/api/bookings?status=confirmed&vertical=flight&from=${tomorrow()}`)).json,
    );
    const listed = page.items.at(-1)!;
    const old = BookingDetailsSchema.parse(
      (await api(browser, 'GET', `/api/bookings/${listed.bookingId}`)).json,
    );
    const trip = TripDetailsSchema.parse((await api(browser, 'GET', `/api/trips/${old.tripId}`)).json);
    const leg = trip.segments.find((segment) => segment.segmentId === old.segmentId)!;
    const search = await api(browser, 'POST', '/api/flights/search', {
      itinerary: [{ origin: leg.origin.code, destination: leg.destination.code, date: old.startDate }],
      passengers: { adults: 1 },
      cabinClass: 'economy',
    });
    expect(search.status).toBe(200);
    const offers = FlightSearchResponseSchema.parse(search.json).offers.filter(
      (offer) => offer.legs[0]!.segments[0]!.flightNumber !== leg.serviceNumber,
    );
    expect(offers.length).toBeGreaterThan(1);
    return { browser, old, offers, confirmedFlights: page.meta.totalCount };
  }

  const choice = (broken: Broken, offer = broken.offers[0]!): RebookingRequest => ({
    bookingId: broken.old.bookingId,
    offerId: offer.offerId,
    price: offer.totalPrice,
  });

  const rebook = (browser: TestBrowser, request: RebookingRequest, key: string = randomUUID()) =>
    api(browser, 'POST', '/api/rebookings', request, { 'idempotency-key': key });

  const readBooking = async (browser: TestBrowser, bookingId: string) =>
    BookingDetailsSchema.parse((await api(browser, 'GET', `/api/bookings/${bookingId}`)).json);

  const bookingTold = async (browser: TestBrowser) =>
    NotificationsPageSchema.parse((await api(browser, 'GET', '/api/notifications')).json).items.filter(
      (item) => item.eventType.startsWith('BOOKING_'),
    );

  it('books the new flight into the trip, then cancels the old booking with its refund, told in one notification', async () => {
    const broken = await brokenLeg();
    const answer = await rebook(broken.browser, choice(broken));
    expect(answer.status).toBe(201);
    const rebooking = RebookingSchema.parse(answer.json);
    expect(rebooking).toMatchObject({
      state: 'completed',
      cancelAttempts: 1,
      newBooking: {
        status: 'confirmed',
        tripId: broken.old.tripId,
        totalPrice: broken.offers[0]!.totalPrice,
      },
      oldBooking: {
        bookingId: broken.old.bookingId,
        status: 'cancelled',
        cancellation: { refund: broken.old.cancellationTerms!.refund },
      },
    });
    const trip = TripDetailsSchema.parse(
      (await api(broken.browser, 'GET', `/api/trips/${broken.old.tripId}`)).json,
    );
    const statuses = Object.fromEntries(trip.segments.map((segment) => [segment.segmentId, segment.status]));
    expect(statuses[broken.old.segmentId!]).toBe('CANCELLED');
    expect(statuses[rebooking.newBooking.segmentId!]).toBe('SCHEDULED');
    const told = await bookingTold(broken.browser);
    expect(told.map((item) => item.eventType)).toEqual(['BOOKING_CHANGED']);
  });

  it('makes one booking of a double click: concurrent submits with one key share one upstream create', async () => {
    const broken = await brokenLeg();
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => rebook(broken.browser, choice(broken), key)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    const ids = new Set(answers.map((answer) => RebookingSchema.parse(answer.json).newBooking.bookingId));
    expect(ids.size).toBe(1);
    expect(upstreamCreates(createKeyOf(broken.old.bookingId))).toHaveLength(1);
    expect(await bookingTold(broken.browser)).toHaveLength(1);
  });

  it('answers a retry after a timeout with the rebooking already made, never booking again', async () => {
    const broken = await brokenLeg();
    const key = randomUUID();
    stack.tap.holdNext('/v1/bookings', UPSTREAM_TIMEOUT_MS + 1500);
    const first = await rebook(broken.browser, choice(broken), key);
    expect(first.status).toBe(201);
    const retried = await rebook(broken.browser, choice(broken), key);
    expect(retried.status).toBe(201);
    const [a, b] = [first, retried].map((answer) => RebookingSchema.parse(answer.json));
    expect(b!.newBooking.bookingId).toBe(a!.newBooking.bookingId);
    expect(b!.state).toBe('completed');
    expect(upstreamCreates(createKeyOf(broken.old.bookingId))).toHaveLength(1);
    expect(await confirmedFlights(broken.browser)).toBe(broken.confirmedFlights);
  }, 20_000);

  it('makes one rebooking of two tabs confirming at once: the same flight once, another choice refused', async () => {
    const broken = await brokenLeg();
    const same = await Promise.all([
      rebook(broken.browser, choice(broken)),
      rebook(broken.browser, choice(broken)),
    ]);
    expect(same.map((answer) => answer.status)).toEqual([201, 201]);
    const [a, b] = same.map((answer) => RebookingSchema.parse(answer.json));
    expect(b!.newBooking.bookingId).toBe(a!.newBooking.bookingId);
    expect(upstreamCreates(createKeyOf(broken.old.bookingId))).toHaveLength(1);

    const other = await brokenLeg();
    const raced = await Promise.all([
      rebook(other.browser, choice(other, other.offers[0])),
      rebook(other.browser, choice(other, other.offers[1])),
    ]);
    expect(raced.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const refused = envelope(raced.find((answer) => answer.status === 409)!);
    expect(refused).toMatchObject({ code: 'BOOKING_CONFLICT', recoveryAction: 'CHANGE_SELECTION' });
    expect(
      upstreamCreates().filter((request) =>
        request.body.toString().includes(`"replacesBookingId":"${other.old.bookingId}"`),
      ),
    ).toHaveLength(1);
  });

  it('keeps both bookings when the cancel fails, says so, and retries the cancel until it succeeds', async () => {
    const broken = await brokenLeg();
    expect((await api(broken.browser, 'POST', '/api/demo/cancel-failure')).status).toBe(200);
    const key = randomUUID();
    const answer = await rebook(broken.browser, choice(broken), key);
    expect(answer.status).toBe(201);
    const pending = RebookingSchema.parse(answer.json);
    expect(pending).toMatchObject({
      state: 'cancel-pending',
      cancelAttempts: 1,
      newBooking: { status: 'confirmed' },
      oldBooking: { bookingId: broken.old.bookingId, status: 'confirmed' },
    });
    await expect
      .poll(async () => (await readBooking(broken.browser, broken.old.bookingId)).status, { timeout: 5000 })
      .toBe('cancelled');
    const again = RebookingSchema.parse((await rebook(broken.browser, choice(broken), key)).json);
    expect(again).toMatchObject({
      state: 'completed',
      newBooking: { bookingId: pending.newBooking.bookingId },
      oldBooking: { status: 'cancelled', cancellation: { refund: broken.old.cancellationTerms!.refund } },
    });
    expect(upstreamCreates(createKeyOf(broken.old.bookingId))).toHaveLength(1);
    expect((await bookingTold(broken.browser)).map((item) => item.eventType)).toEqual(['BOOKING_CHANGED']);
  });

  it('leaves the old booking untouched when the new booking fails or the price moved', async () => {
    const broken = await brokenLeg();
    expect((await api(broken.browser, 'POST', '/api/demo/payment-decline')).status).toBe(200);
    const declined = await rebook(broken.browser, choice(broken));
    expect(declined.status).toBe(402);
    expect(envelope(declined)).toMatchObject({ code: 'PAYMENT_DECLINED', recoveryAction: 'CHANGE_PAYMENT' });

    expect((await api(broken.browser, 'POST', '/api/demo/price-change')).status).toBe(200);
    const moved = await rebook(broken.browser, choice(broken, broken.offers[1]));
    expect(moved.status).toBe(409);
    expect(envelope(moved)).toMatchObject({ code: 'PRICE_CHANGED', recoveryAction: 'FIX_INPUT' });

    const cancels = stack.tap.seen.filter(
      (request) => request.url === `/v1/bookings/${broken.old.bookingId}/cancel`,
    );
    expect(cancels).toEqual([]);
    const old = await readBooking(broken.browser, broken.old.bookingId);
    expect(old).toMatchObject({ status: 'confirmed', cancellationTerms: broken.old.cancellationTerms });
  });

  it('refuses a key reused for another choice, and a booking that is not a flight', async () => {
    const broken = await brokenLeg();
    const key = randomUUID();
    expect((await rebook(broken.browser, choice(broken), key)).status).toBe(201);
    const reused = await rebook(broken.browser, choice(broken, broken.offers[1]), key);
    expect(reused.status).toBe(422);
    expect(envelope(reused).details).toEqual([expect.objectContaining({ field: 'idempotency-key' })]);

    const stays = BookingsPageSchema.parse(
      (await api(broken.browser, 'GET', '/api/bookings?status=confirmed&vertical=stay')).json,
    ).items;
    const notAFlight = await rebook(broken.browser, { ...choice(broken), bookingId: stays[0]!.bookingId });
    expect(notAFlight.status).toBe(422);
    expect(envelope(notAFlight).details).toEqual([expect.objectContaining({ code: 'not_a_flight' })]);
  });
});
