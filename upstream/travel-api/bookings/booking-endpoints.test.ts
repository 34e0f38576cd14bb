import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { readSseStream } from '#shared/sse.ts';
import {
  BookingDetailsSchema,
  PaymentMethodListSchema,
  PriceCheckSchema,
  type BookingDetails,
  type BookingLever,
  type PaymentMethod,
} from '#shared/upstream/booking-operations.ts';
import { BookingListSchema, BookingsPageSchema } from '#shared/upstream/bookings.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { FlightSearchResponseSchema, type FlightOffer } from '#shared/upstream/flights.ts';
import { NotificationsPageSchema } from '#shared/upstream/notifications.ts';
import { StayFareSchema, StayPropertyDetailsSchema, type StayFare } from '#shared/upstream/stays.ts';
import { TripDetailsSchema } from '#shared/upstream/trips.ts';
import { applyMigrations } from '../db.ts';
import { adminFetch } from '../notifications/test-support/admin-fetch.ts';
import { signedFetch, type SignedRequest } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';
import { dayInWords } from '../notifications/day-in-words.ts';
import { addDays } from '../time-zones.ts';
import { isSoldOut } from '../stays/quote-fares.ts';
import { STAY_SEGMENT_ADDRESSES } from './booking-service.ts';

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const SAM = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';
const stack = travelApiWithIdentity({
  env: { TRAVEL_API_STREAM_PACE_MS: '0', TRAVEL_API_LOG_LEVEL: 'error' },
  clearFaultsBeforeEach: true,
});
beforeEach(async () => {
  await adminFetch(stack.api.baseUrl, 'DELETE', '/admin/booking-levers');
});

const today = new Date().toISOString().slice(0, 10);
const inDays = (days: number) => addDays(today, days);

async function call(sub: string, request: SignedRequest): Promise<Response> {
  return signedFetch(stack.api.baseUrl, { ...request, token: await stack.identity.token({ sub }) });
}

async function expectEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const { error } = ErrorEnvelopeSchema.parse(await response.json());
  expect(error.code).toBe(code);
  return error;
}

const lever = (travelerId: string, name: BookingLever) =>
  adminFetch(stack.api.baseUrl, 'POST', '/admin/booking-levers', { travelerId, lever: name });

async function flightOffers(sub: string, date: string, cabinClass = 'economy'): Promise<FlightOffer[]> {
  const response = await call(sub, {
    path: '/v1/flights/search',
    json: {
      itinerary: [{ origin: 'LHR', destination: 'CDG', date }],
      passengers: { adults: 1 },
      cabinClass,
      currency: 'EUR',
    },
  });
  expect(response.status).toBe(200);
  return FlightSearchResponseSchema.parse(await response.json()).offers;
}

/** A Lisbon hotel that has rooms on the check-in date, as the stay destinations name it. */
function lisbonHotel(checkIn: string) {
  const place = stack.api.app.hotels
    .destinations('lisbon', 20)
    .find(
      (item) =>
        item.type === 'property' &&
        !isSoldOut(stack.api.config.TRAVEL_API_SEED, stack.api.app.hotels.byRawId(item.propertyId)!, checkIn),
    );
  if (place?.type !== 'property') throw new Error(`no Lisbon hotel has rooms on ${checkIn}`);
  return place;
}

/** The rates of a Lisbon hotel that has rooms on the check-in date, for personal or business travel. */
async function stayFares(sub: string, checkIn: string, nights: number, bookingProfile: boolean) {
  const place = lisbonHotel(checkIn);
  const response = await call(sub, {
    path: '/v1/stays/fares',
    json: {
      property: place,
      checkIn,
      checkOut: addDays(checkIn, nights),
      rooms: [{ adults: 2 }],
      bookingProfile,
    },
  });
  expect(response.status).toBe(200);
  const fares: StayFare[] = [];
  for await (const message of readSseStream(response.body as ReadableStream<Uint8Array>)) {
    if (message.event === 'fare') fares.push(StayFareSchema.parse(JSON.parse(message.data)));
  }
  expect(fares.length).toBeGreaterThan(0);
  return fares;
}

async function methods(sub: string, bookingProfile?: boolean): Promise<PaymentMethod[]> {
  const query = bookingProfile === undefined ? '' : `?bookingProfile=${bookingProfile}`;
  const response = await call(sub, { path: `/v1/me/payment-methods${query}` });
  expect(response.status).toBe(200);
  return PaymentMethodListSchema.parse(await response.json()).items;
}

interface BookingInput {
  offerId: string;
  price: { amount: number; currency: string };
  paymentMethodId: string;
  bookingProfile?: boolean;
  tripId?: string;
  replacesBookingId?: string;
}

function book(sub: string, input: BookingInput, key: string | null = randomUUID()): Promise<Response> {
  return call(sub, {
    path: '/v1/bookings',
    json: { ...input, traveler: { name: 'Alex Morgan', email: 'alex@wayfare.example' } },
    headers: key === null ? {} : { 'idempotency-key': key },
  });
}

async function booked(response: Response): Promise<BookingDetails> {
  expect(response.status).toBe(201);
  return BookingDetailsSchema.parse(await response.json());
}

async function companyCard(sub = ALEX): Promise<PaymentMethod> {
  return (await methods(sub, false))[0]!;
}

describe('POST /v1/offers/:offerId/price-check', () => {
  it('answers unchanged for a quoted flight offer and a stay rate', async () => {
    const [offer] = await flightOffers(ALEX, inDays(200));
    const response = await call(ALEX, { method: 'POST', path: `/v1/offers/${offer!.offerId}/price-check` });
    expect(response.status).toBe(200);
    expect(PriceCheckSchema.parse(await response.json())).toMatchObject({
      offerId: offer!.offerId,
      kind: 'flight',
      status: 'unchanged',
      previousPrice: offer!.totalPrice,
      price: offer!.totalPrice,
    });
    const [fare] = await stayFares(SAM, inDays(210), 2, true);
    const stay = await call(SAM, { method: 'POST', path: `/v1/offers/${fare!.fareId}/price-check` });
    expect(PriceCheckSchema.parse(await stay.json())).toMatchObject({
      kind: 'stay',
      status: 'unchanged',
      price: { amount: fare!.totalPrice, currency: fare!.currency },
    });
  });

  it('answers changed with the old and the new price once the price-change lever is armed, and only once', async () => {
    const [offer] = await flightOffers(ALEX, inDays(201));
    await lever(ALEX, 'price-change');
    const path = `/v1/offers/${offer!.offerId}/price-check`;
    const changed = PriceCheckSchema.parse(await (await call(ALEX, { method: 'POST', path })).json());
    expect(changed.status).toBe('changed');
    expect(changed.previousPrice).toEqual(offer!.totalPrice);
    expect(changed.price.amount).toBeGreaterThan(offer!.totalPrice.amount);
    const again = PriceCheckSchema.parse(await (await call(ALEX, { method: 'POST', path })).json());
    expect(again).toMatchObject({ status: 'unchanged', previousPrice: changed.price, price: changed.price });
  });

  it('answers 410 OFFER_EXPIRED (CHANGE_SELECTION) for an unknown offer, the expired lever and the fault', async () => {
    const unknown = await call(ALEX, { method: 'POST', path: `/v1/offers/${randomUUID()}/price-check` });
    expect(await expectEnvelope(unknown, 410, 'OFFER_EXPIRED')).toMatchObject({
      code: 'OFFER_EXPIRED',
      recoveryAction: 'CHANGE_SELECTION',
    });
    const [offer] = await flightOffers(ALEX, inDays(202));
    await lever(ALEX, 'offer-expired');
    const path = `/v1/offers/${offer!.offerId}/price-check`;
    await expectEnvelope(await call(ALEX, { method: 'POST', path }), 410, 'OFFER_EXPIRED');
    expect((await call(ALEX, { method: 'POST', path })).status).toBe(200);
    await adminFetch(stack.api.baseUrl, 'PUT', '/admin/faults', { offersExpired: true });
    await expectEnvelope(await call(ALEX, { method: 'POST', path }), 410, 'OFFER_EXPIRED');
  });
});

describe('GET /v1/me/payment-methods', () => {
  it('lists company and personal cards by reference, filtered by bookingProfile, never a card number', async () => {
    const all = await methods(ALEX);
    expect(all.map((method) => method.bookingProfile).sort()).toEqual([false, false, true, true]);
    expect((await methods(ALEX, false)).every((method) => /^Company/.test(method.label))).toBe(true);
    expect((await methods(ALEX, true)).every((method) => /^Personal/.test(method.label))).toBe(true);
    for (const method of all) {
      expect(Object.keys(method).sort()).toEqual([
        'bookingProfile',
        'brand',
        'expiryMonth',
        'expiryYear',
        'holderName',
        'label',
        'last4',
        'paymentMethodId',
        'type',
      ]);
    }
    const sams = await methods(SAM);
    expect(sams.map((method) => method.paymentMethodId)).not.toContain(all[0]!.paymentMethodId);
  });
});

describe('POST /v1/bookings', () => {
  it('books a flight offer: 201, in both bookings lists, in a trip, and a confirmation notification', async () => {
    const [offer] = await flightOffers(ALEX, inDays(220));
    const card = await companyCard();
    const booking = await booked(
      await book(ALEX, {
        offerId: offer!.offerId,
        price: offer!.totalPrice,
        paymentMethodId: card.paymentMethodId,
      }),
    );
    expect(booking).toMatchObject({
      vertical: 'flight',
      status: 'confirmed',
      totalPrice: offer!.totalPrice,
      bookingProfile: false,
      paymentMethod: { paymentMethodId: card.paymentMethodId, last4: card.last4 },
      flight: { cabinClass: 'economy', fareConditions: offer!.fareConditions },
      stay: null,
      cancellation: null,
    });
    expect(booking.reference).toMatch(/^[A-Z2-9]{6}$/);

    const list = BookingListSchema.parse(await (await call(ALEX, { path: '/v1/bookings' })).json());
    expect(list.map((item) => item.bookingId)).toContain(booking.bookingId);
    const page = BookingsPageSchema.parse(
      await (await call(ALEX, { path: `/v1/bookings/page?from=${inDays(219)}&to=${inDays(221)}` })).json(),
    );
    expect(page.items.map((item) => item.reference)).toEqual([booking.reference]);

    const trip = TripDetailsSchema.parse(
      await (await call(ALEX, { path: `/v1/trips/${booking.tripId}` })).json(),
    );
    const flights = trip.segments.filter((segment) => segment.bookingReference === booking.reference);
    expect(flights.map((segment) => segment.serviceNumber)).toEqual(
      offer!.legs.flatMap((leg) => leg.segments.map((segment) => segment.flightNumber)),
    );
    expect(flights.map((segment) => segment.status)).toEqual(flights.map(() => 'SCHEDULED'));

    const inbox = NotificationsPageSchema.parse(
      await (await call(ALEX, { path: '/v1/me/notifications' })).json(),
    );
    const confirmation = inbox.items.find((item) => item.eventType === 'BOOKING_CONFIRMED');
    expect(confirmation).toMatchObject({ tripId: booking.tripId, segmentId: booking.segmentId });
    expect(confirmation?.body).toContain(booking.reference);
    // The day in words, as every notification writes it; never a raw date.
    expect(confirmation?.body).toContain(dayInWords(booking.startDate));
    expect(confirmation?.body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // The same as values, for a client writing it in its traveler's language.
    const places = [...offer!.legs.map((leg) => leg.origin), offer!.legs.at(-1)!.destination];
    expect(confirmation?.facts?.booking).toEqual({
      reference: booking.reference,
      kind: 'flight',
      cities: places.map((place) => place.city),
      // Each city by language, for a client naming it in its traveler's language ("Londres").
      cityNames: places.map((place) => ({ ...stack.api.app.inventory.cityNamesOf(place) })),
      propertyName: null,
      startDate: booking.startDate,
      endDate: booking.endDate,
      totalPrice: booking.totalPrice,
      paymentMethod: { brand: booking.paymentMethod!.brand, last4: booking.paymentMethod!.last4 },
      refund: null,
    });
  });

  it('gives the same booking for the same key and body, also to concurrent requests, and refuses another body', async () => {
    const [offer] = await flightOffers(ALEX, inDays(221));
    const card = await companyCard();
    const input = {
      offerId: offer!.offerId,
      price: offer!.totalPrice,
      paymentMethodId: card.paymentMethodId,
    };
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => book(ALEX, input, key)));
    const bookings = await Promise.all(answers.map(booked));
    expect(new Set(bookings.map((booking) => booking.bookingId)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);

    const later = await booked(await book(ALEX, input, key));
    expect(later.bookingId).toBe(bookings[0]!.bookingId);
    const page = BookingsPageSchema.parse(
      await (await call(ALEX, { path: `/v1/bookings/page?from=${inDays(221)}&to=${inDays(221)}` })).json(),
    );
    expect(page.meta.totalCount).toBe(1);

    const other = (await methods(ALEX, false))[1]!;
    const reused = await book(ALEX, { ...input, paymentMethodId: other.paymentMethodId }, key);
    expect((await expectEnvelope(reused, 422, 'IDEMPOTENCY_KEY_REUSED')).recoveryAction).toBe('FIX_INPUT');
  });

  it('answers a lost create again through GET /v1/booking-requests/:key, and 404 for a key never completed', async () => {
    const [offer] = await flightOffers(ALEX, inDays(222));
    const card = await companyCard();
    const key = randomUUID();
    const booking = await booked(
      await book(
        ALEX,
        { offerId: offer!.offerId, price: offer!.totalPrice, paymentMethodId: card.paymentMethodId },
        key,
      ),
    );
    const lookup = await call(ALEX, { path: `/v1/booking-requests/${key}` });
    expect(lookup.status).toBe(201);
    expect(BookingDetailsSchema.parse(await lookup.json()).bookingId).toBe(booking.bookingId);
    await expectEnvelope(
      await call(ALEX, { path: `/v1/booking-requests/${randomUUID()}` }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('refuses the same flight twice with 409 BOOKING_CONFLICT naming the earlier booking', async () => {
    const [offer] = await flightOffers(ALEX, inDays(223));
    const card = await companyCard();
    const input = {
      offerId: offer!.offerId,
      price: offer!.totalPrice,
      paymentMethodId: card.paymentMethodId,
    };
    const first = await booked(await book(ALEX, input));
    const error = await expectEnvelope(await book(ALEX, input), 409, 'BOOKING_CONFLICT');
    expect(error.recoveryAction).toBe('CHANGE_SELECTION');
    expect(error.message).toContain(first.reference);
    expect(error.reason).toMatchObject({
      code: 'same_flight',
      reference: first.reference,
      flightNumber: first.flight?.legs[0]?.segments[0]?.flightNumber,
      date: first.startDate,
    });
  });

  it('refuses an overlapping stay, and books one that starts the day the other ends', async () => {
    const checkIn = inDays(240);
    const fares = await stayFares(SAM, checkIn, 3, true);
    const personal = (await methods(SAM, true))[0]!;
    const first = await booked(
      await book(SAM, {
        offerId: fares[0]!.fareId,
        price: { amount: fares[0]!.totalPrice, currency: fares[0]!.currency },
        paymentMethodId: personal.paymentMethodId,
      }),
    );
    expect(first.stay).toMatchObject({ checkIn, checkOut: addDays(checkIn, 3), nights: 3 });
    const overlapping = (await stayFares(SAM, addDays(checkIn, 2), 2, true))[0]!;
    const error = await expectEnvelope(
      await book(SAM, {
        offerId: overlapping.fareId,
        price: { amount: overlapping.totalPrice, currency: overlapping.currency },
        paymentMethodId: personal.paymentMethodId,
      }),
      409,
      'BOOKING_CONFLICT',
    );
    expect(error.reason).toMatchObject({
      code: 'overlapping_stay',
      reference: first.reference,
      hotel: first.title,
      checkIn,
      checkOut: addDays(checkIn, 3),
    });
    expect(error.message).toContain(first.reference);
    const next = (await stayFares(SAM, addDays(checkIn, 3), 1, true))[0]!;
    await booked(
      await book(SAM, {
        offerId: next.fareId,
        price: { amount: next.totalPrice, currency: next.currency },
        paymentMethodId: personal.paymentMethodId,
      }),
    );
  });

  it('puts a booked stay on its trip under the hotel’s own name and address, as the hotel’s page gives them', async () => {
    const checkIn = inDays(290);
    const hotel = StayPropertyDetailsSchema.parse(
      await (await call(SAM, { path: `/v1/stays/properties/${lisbonHotel(checkIn).propertyId}` })).json(),
    );
    const [fare] = await stayFares(SAM, checkIn, 2, true);
    const personal = (await methods(SAM, true))[0]!;
    const booking = await booked(
      await book(SAM, {
        offerId: fare!.fareId,
        price: { amount: fare!.totalPrice, currency: fare!.currency },
        paymentMethodId: personal.paymentMethodId,
      }),
    );
    expect(booking.stay).toMatchObject({ propertyName: hotel.name, address: hotel.address });
    const stayOnTrip = async () =>
      TripDetailsSchema.parse(
        await (await call(SAM, { path: `/v1/trips/${booking.tripId}` })).json(),
      ).segments.find((segment) => segment.segmentId === booking.segmentId);
    expect(await stayOnTrip()).toMatchObject({
      kind: 'stay',
      title: hotel.name,
      origin: { name: hotel.name, city: hotel.city },
      address: hotel.address,
    });

    // A stay booked before its segment kept the address is given it from what was booked.
    const { db } = stack.api.app;
    db.prepare('UPDATE segments SET address = NULL WHERE segment_id = ?').run(booking.segmentId);
    db.prepare('DELETE FROM schema_migrations WHERE name = ?').run(STAY_SEGMENT_ADDRESSES.name);
    applyMigrations(db, [STAY_SEGMENT_ADDRESSES]);
    expect((await stayOnTrip())?.address).toBe(hotel.address);
  });

  it('answers 402 PAYMENT_DECLINED (CHANGE_PAYMENT) when the payment lever is armed; another method books', async () => {
    const [offer] = await flightOffers(ALEX, inDays(224));
    const [card, other] = await methods(ALEX, false);
    const input = {
      offerId: offer!.offerId,
      price: offer!.totalPrice,
      paymentMethodId: card!.paymentMethodId,
    };
    await lever(ALEX, 'payment-decline');
    const key = randomUUID();
    const declined = await expectEnvelope(await book(ALEX, input, key), 402, 'PAYMENT_DECLINED');
    expect(declined.recoveryAction).toBe('CHANGE_PAYMENT');
    expect(declined.reason).toEqual({ code: 'card_declined', paymentMethodId: card!.paymentMethodId });
    // The same request under the same key keeps its answer.
    await expectEnvelope(await book(ALEX, input, key), 402, 'PAYMENT_DECLINED');
    const booking = await booked(await book(ALEX, { ...input, paymentMethodId: other!.paymentMethodId }));
    expect(booking.paymentMethod?.paymentMethodId).toBe(other!.paymentMethodId);
  });

  it('answers 409 BOOKING_CONFLICT with the reason when the conflict lever is armed', async () => {
    const [offer] = await flightOffers(ALEX, inDays(225));
    const card = await companyCard();
    await lever(ALEX, 'booking-conflict');
    const error = await expectEnvelope(
      await book(ALEX, {
        offerId: offer!.offerId,
        price: offer!.totalPrice,
        paymentMethodId: card.paymentMethodId,
      }),
      409,
      'BOOKING_CONFLICT',
    );
    expect(error.reason).toMatchObject({ code: 'provider_conflict' });
  });

  it('leaves `details` empty on every refusal that is not a validation error; what it names is in `reason`', async () => {
    // The spec, Error envelope: "error.details | array | Field-level errors; empty array for non-validation errors"
    const [offer] = await flightOffers(ALEX, inDays(235));
    const [card, other] = await methods(ALEX, false);
    const input = {
      offerId: offer!.offerId,
      price: offer!.totalPrice,
      paymentMethodId: card!.paymentMethodId,
    };
    await lever(ALEX, 'payment-decline');
    const declined = await expectEnvelope(await book(ALEX, input), 402, 'PAYMENT_DECLINED');
    const first = await booked(await book(ALEX, { ...input, paymentMethodId: other!.paymentMethodId }));
    const sameFlight = await expectEnvelope(await book(ALEX, input), 409, 'BOOKING_CONFLICT');
    const [later] = await flightOffers(ALEX, inDays(236));
    await lever(ALEX, 'booking-conflict');
    const held = await expectEnvelope(
      await book(ALEX, { ...input, offerId: later!.offerId, price: later!.totalPrice }),
      409,
      'BOOKING_CONFLICT',
    );
    const [generated] = BookingListSchema.parse(
      await (
        await call(SAM, { path: `/v1/bookings?status=confirmed&vertical=stay&to=${inDays(150)}` })
      ).json(),
    );
    const notCancellable = await expectEnvelope(
      await call(SAM, { method: 'POST', path: `/v1/bookings/${generated!.bookingId}/cancel` }),
      409,
      'BOOKING_CONFLICT',
    );
    for (const error of [declined, sameFlight, held, notCancellable]) expect(error.details).toEqual([]);
    expect(declined.reason).toEqual({ code: 'card_declined', paymentMethodId: card!.paymentMethodId });
    expect(sameFlight.reason).toMatchObject({ code: 'same_flight', reference: first.reference });
    expect(held.reason).toEqual({ code: 'provider_conflict' });
    expect(notCancellable).toMatchObject({
      recoveryAction: 'CONTACT_SUPPORT',
      reason: { code: 'not_cancellable' },
    });
  });

  it('books only at the price last checked: 409 PRICE_CHANGED at the old price after a change, 201 at the new', async () => {
    const [offer] = await flightOffers(ALEX, inDays(226));
    const card = await companyCard();
    await lever(ALEX, 'price-change');
    const check = PriceCheckSchema.parse(
      await (await call(ALEX, { method: 'POST', path: `/v1/offers/${offer!.offerId}/price-check` })).json(),
    );
    const input = { offerId: offer!.offerId, paymentMethodId: card.paymentMethodId };
    await expectEnvelope(await book(ALEX, { ...input, price: offer!.totalPrice }), 409, 'PRICE_CHANGED');
    const booking = await booked(await book(ALEX, { ...input, price: check.price }));
    expect(booking.totalPrice).toEqual(check.price);
  });

  it('reprices an offer only for the traveler whose check found the change: another keeps the quoted price', async () => {
    const [offer] = await flightOffers(ALEX, inDays(227));
    const path = `/v1/offers/${offer!.offerId}/price-check`;
    await lever(SAM, 'price-change');
    const samCheck = PriceCheckSchema.parse(await (await call(SAM, { method: 'POST', path })).json());
    expect(samCheck.status).toBe('changed');

    const alexCheck = PriceCheckSchema.parse(await (await call(ALEX, { method: 'POST', path })).json());
    expect(alexCheck).toMatchObject({ status: 'unchanged', price: offer!.totalPrice });
    const alexInput = { offerId: offer!.offerId, paymentMethodId: (await companyCard()).paymentMethodId };
    const booking = await booked(await book(ALEX, { ...alexInput, price: offer!.totalPrice }));
    expect(booking.totalPrice).toEqual(offer!.totalPrice);

    // Sam pays what his check found until a search quotes the offer to him again.
    const samCard = await companyCard(SAM);
    const samInput = { offerId: offer!.offerId, paymentMethodId: samCard.paymentMethodId };
    await expectEnvelope(await book(SAM, { ...samInput, price: offer!.totalPrice }), 409, 'PRICE_CHANGED');
    await flightOffers(SAM, inDays(227));
    const requoted = PriceCheckSchema.parse(await (await call(SAM, { method: 'POST', path })).json());
    expect(requoted).toMatchObject({ status: 'unchanged', price: offer!.totalPrice });
  });

  it('answers 410 OFFER_EXPIRED for an offer it never quoted', async () => {
    const card = await companyCard();
    await expectEnvelope(
      await book(ALEX, {
        offerId: randomUUID(),
        price: { amount: 100, currency: 'EUR' },
        paymentMethodId: card.paymentMethodId,
      }),
      410,
      'OFFER_EXPIRED',
    );
  });

  it('validates: no Idempotency-Key, a card of the other travel kind, another traveler’s card, a bad body', async () => {
    const [offer] = await flightOffers(ALEX, inDays(227));
    const input = { offerId: offer!.offerId, price: offer!.totalPrice };
    const card = await companyCard();
    const missing = await expectEnvelope(
      await book(ALEX, { ...input, paymentMethodId: card.paymentMethodId }, null),
      422,
      'VALIDATION_ERROR',
    );
    expect(missing.details).toEqual([expect.objectContaining({ field: 'idempotency-key', code: 'missing' })]);
    const personal = (await methods(ALEX, true))[0]!;
    const mismatch = await expectEnvelope(
      await book(ALEX, { ...input, paymentMethodId: personal.paymentMethodId }),
      422,
      'VALIDATION_ERROR',
    );
    expect(mismatch.details[0]).toMatchObject({ field: 'paymentMethodId', code: 'payment_method_profile' });
    const sams = (await methods(SAM, false))[0]!;
    const foreign = await expectEnvelope(
      await book(ALEX, { ...input, paymentMethodId: sams.paymentMethodId }),
      422,
      'VALIDATION_ERROR',
    );
    expect(foreign.details[0]).toMatchObject({ code: 'unknown_payment_method' });
    const bad = await call(ALEX, {
      path: '/v1/bookings',
      json: { offerId: 'nope', traveler: { name: '', email: 'x' } },
      headers: { 'idempotency-key': randomUUID() },
    });
    const error = await expectEnvelope(bad, 422, 'VALIDATION_ERROR');
    expect(error.details.map((detail) => detail.field)).toEqual(
      expect.arrayContaining(['offerId', 'price', 'paymentMethodId', 'traveler.name', 'traveler.email']),
    );
  });
});

describe('GET /v1/bookings/:bookingId and POST /v1/bookings/:bookingId/cancel', () => {
  it('cancels a refundable stay for free before its deadline; the lists and the trip show it cancelled', async () => {
    const fares = await stayFares(SAM, inDays(260), 2, true);
    const refundable = fares.find((fare) => fare.cancellation.refundable)!;
    const personal = (await methods(SAM, true))[0]!;
    const booking = await booked(
      await book(SAM, {
        offerId: refundable.fareId,
        price: { amount: refundable.totalPrice, currency: refundable.currency },
        paymentMethodId: personal.paymentMethodId,
      }),
    );
    expect(booking.cancellationTerms).toMatchObject({
      refund: booking.totalPrice,
      fee: { amount: 0 },
      freeUntil: new Date(refundable.cancellation.freeCancellationUntil!).toISOString(),
    });
    expect(booking.stay?.timeZone).toBe('Europe/Lisbon');
    expect(booking.stay?.dueAtProperty.amount).toBeGreaterThan(0);
    // What the city tax's description says, as values a client can write in its traveler's language.
    expect(booking.stay?.dueAtProperty).toMatchObject({ kind: 'city_tax', nights: 2 });
    expect(booking.stay?.dueAtProperty.adults).toBeGreaterThan(0);

    const cancel = await call(SAM, { method: 'POST', path: `/v1/bookings/${booking.bookingId}/cancel` });
    expect(cancel.status).toBe(200);
    const cancelled = BookingDetailsSchema.parse(await cancel.json());
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancellationTerms: null,
      cancellation: { refund: booking.totalPrice, fee: { amount: 0 } },
    });
    const again = await call(SAM, { method: 'POST', path: `/v1/bookings/${booking.bookingId}/cancel` });
    expect(BookingDetailsSchema.parse(await again.json()).cancellation).toEqual(cancelled.cancellation);

    const read = BookingDetailsSchema.parse(
      await (await call(SAM, { path: `/v1/bookings/${booking.bookingId}` })).json(),
    );
    expect(read.status).toBe('cancelled');
    const list = BookingListSchema.parse(
      await (await call(SAM, { path: '/v1/bookings?status=cancelled' })).json(),
    );
    expect(list.map((item) => item.bookingId)).toContain(booking.bookingId);
    const trip = TripDetailsSchema.parse(
      await (await call(SAM, { path: `/v1/trips/${booking.tripId}` })).json(),
    );
    expect(trip.segments.find((segment) => segment.segmentId === booking.segmentId)?.status).toBe(
      'CANCELLED',
    );
    const inbox = NotificationsPageSchema.parse(
      await (await call(SAM, { path: '/v1/me/notifications' })).json(),
    );
    expect(inbox.items.map((item) => item.eventType)).toContain('BOOKING_CANCELLED');
  });

  it('keeps the whole price as the fee of a non-refundable rate', async () => {
    const fares = await stayFares(SAM, inDays(270), 1, true);
    const nonRefundable = fares.find((fare) => !fare.cancellation.refundable)!;
    const personal = (await methods(SAM, true))[0]!;
    const booking = await booked(
      await book(SAM, {
        offerId: nonRefundable.fareId,
        price: { amount: nonRefundable.totalPrice, currency: nonRefundable.currency },
        paymentMethodId: personal.paymentMethodId,
      }),
    );
    const cancelled = BookingDetailsSchema.parse(
      await (await call(SAM, { method: 'POST', path: `/v1/bookings/${booking.bookingId}/cancel` })).json(),
    );
    expect(cancelled.cancellation).toMatchObject({ refund: { amount: 0 }, fee: booking.totalPrice });
  });

  it('never shows or cancels one traveler’s booking to another, nor replays another’s key', async () => {
    const [offer] = await flightOffers(ALEX, inDays(230));
    const card = await companyCard();
    const key = randomUUID();
    const booking = await booked(
      await book(
        ALEX,
        { offerId: offer!.offerId, price: offer!.totalPrice, paymentMethodId: card.paymentMethodId },
        key,
      ),
    );
    await expectEnvelope(
      await call(SAM, { path: `/v1/bookings/${booking.bookingId}` }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectEnvelope(
      await call(SAM, { method: 'POST', path: `/v1/bookings/${booking.bookingId}/cancel` }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectEnvelope(await call(SAM, { path: `/v1/booking-requests/${key}` }), 404, 'RESOURCE_NOT_FOUND');
    const still = BookingDetailsSchema.parse(
      await (await call(ALEX, { path: `/v1/bookings/${booking.bookingId}` })).json(),
    );
    expect(still.status).toBe('confirmed');
  });

  it('cancels a flight booked before these operations as a flexible fare: a full refund until departure', async () => {
    const upcoming = BookingListSchema.parse(
      await (
        await call(SAM, { path: `/v1/bookings?status=confirmed&vertical=flight&from=${inDays(1)}` })
      ).json(),
    );
    const generated = upcoming.at(-1)!;
    const read = BookingDetailsSchema.parse(
      await (await call(SAM, { path: `/v1/bookings/${generated.bookingId}` })).json(),
    );
    expect(read).toMatchObject({
      flight: null,
      cancellationTerms: { refund: generated.totalPrice, fee: { amount: 0 } },
      cancellation: null,
    });

    await lever(SAM, 'cancel-failure');
    const failed = await expectEnvelope(
      await call(SAM, { method: 'POST', path: `/v1/bookings/${generated.bookingId}/cancel` }),
      503,
      'SERVICE_UNAVAILABLE',
    );
    expect(failed.recoveryAction).toBe('RETRY_LATER');
    const still = BookingDetailsSchema.parse(
      await (await call(SAM, { path: `/v1/bookings/${generated.bookingId}` })).json(),
    );
    expect(still.status).toBe('confirmed');

    const cancelled = BookingDetailsSchema.parse(
      await (await call(SAM, { method: 'POST', path: `/v1/bookings/${generated.bookingId}/cancel` })).json(),
    );
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancellationTerms: null,
      cancellation: { refund: generated.totalPrice, fee: { amount: 0 } },
    });
    const again = BookingDetailsSchema.parse(
      await (await call(SAM, { method: 'POST', path: `/v1/bookings/${generated.bookingId}/cancel` })).json(),
    );
    expect(again.cancellation).toEqual(cancelled.cancellation);
    const trip = TripDetailsSchema.parse(
      await (await call(SAM, { path: `/v1/trips/${generated.tripId}` })).json(),
    );
    expect(trip.segments.find((segment) => segment.segmentId === generated.segmentId)?.status).toBe(
      'CANCELLED',
    );
  });

  it('tells of a rebooking once, when the replaced booking is cancelled: the change and the refund', async () => {
    const traveler = '5f1c2a7e-0b1d-4c5e-9a01-000000000731';
    const [old] = BookingListSchema.parse(
      await (
        await call(traveler, { path: `/v1/bookings?status=confirmed&vertical=flight&from=${inDays(1)}` })
      ).json(),
    ).slice(-1);
    const trip = TripDetailsSchema.parse(
      await (await call(traveler, { path: `/v1/trips/${old!.tripId}` })).json(),
    );
    const leg = trip.segments.find((segment) => segment.segmentId === old!.segmentId)!;
    const search = await call(traveler, {
      path: '/v1/flights/search',
      json: {
        itinerary: [{ origin: leg.origin.code, destination: leg.destination.code, date: inDays(20) }],
        passengers: { adults: 1 },
        cabinClass: 'economy',
      },
    });
    const [offer] = FlightSearchResponseSchema.parse(await search.json()).offers;
    const card = (await methods(traveler, old!.bookingProfile))[0]!;
    const replacement = await booked(
      await book(traveler, {
        offerId: offer!.offerId,
        price: offer!.totalPrice,
        paymentMethodId: card.paymentMethodId,
        bookingProfile: old!.bookingProfile,
        tripId: old!.tripId!,
        replacesBookingId: old!.bookingId,
      }),
    );
    expect(replacement.tripId).toBe(old!.tripId);
    const inbox = async () =>
      NotificationsPageSchema.parse(await (await call(traveler, { path: '/v1/me/notifications' })).json())
        .items;
    expect((await inbox()).map((item) => item.eventType)).not.toContain('BOOKING_CONFIRMED');

    await call(traveler, { method: 'POST', path: `/v1/bookings/${old!.bookingId}/cancel` });
    const told = (await inbox()).filter((item) => item.eventType.startsWith('BOOKING_'));
    expect(told.map((item) => item.eventType)).toEqual(['BOOKING_CHANGED']);
    expect(told[0]!.body).toContain(replacement.reference);
    expect(told[0]!.body).toContain(`replaces booking ${old!.reference}, now cancelled. Refund:`);
    // The same as values, for a client that writes it in its traveler's language.
    expect(told[0]!.facts).toMatchObject({
      booking: { reference: replacement.reference, refund: null },
      replaced: { reference: old!.reference, refund: old!.totalPrice },
    });

    const refused = await expectEnvelope(
      await book(traveler, {
        paymentMethodId: card.paymentMethodId,
        offerId: offer!.offerId,
        price: offer!.totalPrice,
        replacesBookingId: randomUUID(),
      }),
      422,
      'VALIDATION_ERROR',
    );
    expect(refused.details).toEqual([expect.objectContaining({ field: 'replacesBookingId' })]);
  });

  it('puts a booking into the trip it names, and refuses a trip that is not the traveler’s', async () => {
    const [offer] = await flightOffers(ALEX, inDays(238));
    const card = await companyCard();
    const trips = (await (await call(ALEX, { path: '/v1/trips/page?limit=1' })).json()) as {
      items: { tripId: string }[];
    };
    const tripId = trips.items[0]!.tripId;
    const input = {
      offerId: offer!.offerId,
      price: offer!.totalPrice,
      paymentMethodId: card.paymentMethodId,
    };
    const refused = await expectEnvelope(
      await book(ALEX, { ...input, tripId: randomUUID() }),
      422,
      'VALIDATION_ERROR',
    );
    expect(refused.details).toEqual([expect.objectContaining({ field: 'tripId', code: 'unknown_trip' })]);
    const booking = await booked(await book(ALEX, { ...input, tripId }));
    expect(booking.tripId).toBe(tripId);
  });

  it('reads a booking made before these operations with null details, and refuses to cancel it online', async () => {
    const [generated] = BookingListSchema.parse(
      await (
        await call(SAM, { path: `/v1/bookings?status=confirmed&vertical=stay&to=${inDays(150)}` })
      ).json(),
    );
    const read = BookingDetailsSchema.parse(
      await (await call(SAM, { path: `/v1/bookings/${generated!.bookingId}` })).json(),
    );
    expect(read).toMatchObject({
      bookingId: generated!.bookingId,
      flight: null,
      stay: null,
      cancellationTerms: null,
    });
    const error = await expectEnvelope(
      await call(SAM, { method: 'POST', path: `/v1/bookings/${generated!.bookingId}/cancel` }),
      409,
      'BOOKING_CONFLICT',
    );
    expect(error.recoveryAction).toBe('CONTACT_SUPPORT');
  });
});
