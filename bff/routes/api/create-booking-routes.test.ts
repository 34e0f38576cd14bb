import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BookingDetailsSchema,
  PaymentMethodListSchema,
  PriceCheckSchema,
  type PaymentMethod,
} from '#shared/api/booking-operations.ts';
import { BookingsPageSchema } from '#shared/upstream/bookings.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { FlightSearchResponseSchema, type FlightOffer } from '#shared/upstream/flights.ts';
import { api, type ApiAnswer } from '../../test-support/json-call.ts';
import type { TestBrowser } from '../../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';

/**
 * Short enough for the test of a create that timed out, long enough for every other call: at 1.5 s a
 * flight search on a loaded machine took longer and the test got 504 where it searched for an offer.
 */
const UPSTREAM_TIMEOUT_MS = 5000;

const envelope = (answer: ApiAnswer) => ErrorEnvelopeSchema.parse(answer.json).error;

function isoDateInDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('booking routes over the real stand-ins', () => {
  let stack: GatewayStack;
  let alex: TestBrowser;
  let sam: TestBrowser;

  beforeAll(async () => {
    stack = await startGatewayStack({
      bffEnv: { DEMO_MODE: 'true', UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) },
    });
    alex = await stack.signIn();
    sam = await stack.signIn('sam@wayfare.example', 'sam-demo');
  }, 60_000);

  afterAll(async () => {
    await stack.close();
  });

  const upstreamCalls = (method: string, prefix: string) =>
    stack.tap.seen.filter((request) => request.method === method && request.url.startsWith(prefix));

  async function offer(days: number): Promise<FlightOffer> {
    const answer = await api(alex, 'POST', '/api/flights/search', {
      itinerary: [{ origin: 'ZRH', destination: 'LHR', date: isoDateInDays(days) }],
      passengers: { adults: 1 },
      cabinClass: 'economy',
    });
    expect(answer.status).toBe(200);
    return FlightSearchResponseSchema.parse(answer.json).offers[0]!;
  }

  async function companyCards(): Promise<PaymentMethod[]> {
    const answer = await api(alex, 'GET', '/api/payment-methods?bookingProfile=false');
    expect(answer.status).toBe(200);
    return PaymentMethodListSchema.parse(answer.json).items;
  }

  async function bookingInput(days: number) {
    const chosen = await offer(days);
    const [card] = await companyCards();
    return {
      offerId: chosen.offerId,
      price: chosen.totalPrice,
      paymentMethodId: card!.paymentMethodId,
      traveler: { name: 'Alex Morgan', email: 'alex@wayfare.example', phone: '+41 44 000 00 00' },
    };
  }

  const bookingsOn = async (days: number) =>
    BookingsPageSchema.parse(
      (await api(alex, 'GET', `/api/bookings?from=${isoDateInDays(days)}&to=${isoDateInDays(days)}`)).json,
    ).items;

  it('checks a price, lists payment methods by reference, and books with the key sent upstream', async () => {
    const input = await bookingInput(200);
    const check = await api(alex, 'POST', `/api/offers/${input.offerId}/price-check`);
    expect(check.status).toBe(200);
    expect(PriceCheckSchema.parse(check.json)).toMatchObject({ status: 'unchanged', price: input.price });
    const cards = await companyCards();
    expect(cards.length).toBeGreaterThan(1);
    for (const card of cards) expect(JSON.stringify(card)).not.toMatch(/\d{12,}/);

    const key = randomUUID();
    const answer = await api(alex, 'POST', '/api/bookings', input, { 'idempotency-key': key });
    expect(answer.status).toBe(201);
    const booking = BookingDetailsSchema.parse(answer.json);
    expect(booking).toMatchObject({ status: 'confirmed', vertical: 'flight', totalPrice: input.price });
    const [upstream] = upstreamCalls('POST', '/v1/bookings').filter(
      (request) => request.headers['idempotency-key'] === key,
    );
    expect(upstream?.headers['service-signature']).toMatch(/^[0-9a-f]{64}$/);

    const again = await api(alex, 'POST', '/api/bookings', input, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(BookingDetailsSchema.parse(again.json).bookingId).toBe(booking.bookingId);
    expect((await bookingsOn(200)).map((item) => item.bookingId)).toEqual([booking.bookingId]);
  });

  it('makes one booking of a double submit: concurrent requests with one key share one upstream call', async () => {
    const input = await bookingInput(201);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api(alex, 'POST', '/api/bookings', input, { 'idempotency-key': key })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    const ids = new Set(answers.map((answer) => BookingDetailsSchema.parse(answer.json).bookingId));
    expect(ids.size).toBe(1);
    const creates = upstreamCalls('POST', '/v1/bookings').filter(
      (request) => request.headers['idempotency-key'] === key,
    );
    expect(creates).toHaveLength(1);
    expect(await bookingsOn(201)).toHaveLength(1);
  });

  it('answers a create that timed out by looking the booking up by its key, never by booking again', async () => {
    const input = await bookingInput(202);
    const key = randomUUID();
    stack.tap.holdNext('/v1/bookings', UPSTREAM_TIMEOUT_MS + 1500);
    const answer = await api(alex, 'POST', '/api/bookings', input, { 'idempotency-key': key });
    expect(answer.status).toBe(201);
    const booking = BookingDetailsSchema.parse(answer.json);
    const creates = upstreamCalls('POST', '/v1/bookings').filter(
      (request) => request.headers['idempotency-key'] === key,
    );
    expect(creates).toHaveLength(1);
    expect(upstreamCalls('GET', `/v1/booking-requests/${key}`).length).toBeGreaterThan(0);
    expect((await bookingsOn(202)).map((item) => item.bookingId)).toEqual([booking.bookingId]);
  }, 20_000);

  it('refuses a create without an Idempotency-Key before anything goes upstream', async () => {
    const before = upstreamCalls('POST', '/v1/bookings').length;
    const answer = await api(alex, 'POST', '/api/bookings', await bookingInput(203));
    expect(answer.status).toBe(422);
    expect(envelope(answer).details).toEqual([
      expect.objectContaining({ field: 'idempotency-key', code: 'missing' }),
    ]);
    expect(upstreamCalls('POST', '/v1/bookings')).toHaveLength(before);
  });

  it('relays the demo levers: price changed, payment declined (CHANGE_PAYMENT), booking conflict', async () => {
    const input = await bookingInput(204);
    expect((await api(alex, 'POST', '/api/demo/price-change')).status).toBe(200);
    const check = PriceCheckSchema.parse(
      (await api(alex, 'POST', `/api/offers/${input.offerId}/price-check`)).json,
    );
    expect(check.status).toBe('changed');
    expect(check.previousPrice).toEqual(input.price);
    const accepted = { ...input, price: check.price };

    expect((await api(alex, 'POST', '/api/demo/payment-decline')).status).toBe(200);
    const declined = await api(alex, 'POST', '/api/bookings', accepted, { 'idempotency-key': randomUUID() });
    expect(declined.status).toBe(402);
    // What the refusal names reaches the browser in `reason`; `details` stays for validation errors.
    expect(envelope(declined)).toMatchObject({
      code: 'PAYMENT_DECLINED',
      recoveryAction: 'CHANGE_PAYMENT',
      details: [],
      reason: { code: 'card_declined', paymentMethodId: accepted.paymentMethodId },
    });

    expect((await api(alex, 'POST', '/api/demo/booking-conflict')).status).toBe(200);
    const conflict = await api(alex, 'POST', '/api/bookings', accepted, { 'idempotency-key': randomUUID() });
    expect(conflict.status).toBe(409);
    expect(envelope(conflict)).toMatchObject({
      code: 'BOOKING_CONFLICT',
      details: [],
      reason: { code: 'provider_conflict' },
    });

    expect((await api(alex, 'POST', '/api/demo/offer-expiry')).status).toBe(200);
    const expired = await api(alex, 'POST', `/api/offers/${input.offerId}/price-check`);
    expect(expired.status).toBe(410);
    expect(envelope(expired)).toMatchObject({ code: 'OFFER_EXPIRED', recoveryAction: 'CHANGE_SELECTION' });

    const booked = await api(alex, 'POST', '/api/bookings', accepted, { 'idempotency-key': randomUUID() });
    expect(booked.status).toBe(201);
  });

  it('reads and cancels a booking; another traveler can do neither', async () => {
    const input = await bookingInput(205);
    const booking = BookingDetailsSchema.parse(
      (await api(alex, 'POST', '/api/bookings', input, { 'idempotency-key': randomUUID() })).json,
    );
    expect((await api(sam, 'GET', `/api/bookings/${booking.bookingId}`)).status).toBe(404);
    expect((await api(sam, 'POST', `/api/bookings/${booking.bookingId}/cancel`)).status).toBe(404);
    const read = await api(alex, 'GET', `/api/bookings/${booking.bookingId}`);
    expect(BookingDetailsSchema.parse(read.json).cancellationTerms).not.toBeNull();
    const cancelled = await api(alex, 'POST', `/api/bookings/${booking.bookingId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(BookingDetailsSchema.parse(cancelled.json)).toMatchObject({ status: 'cancelled' });
    expect((await bookingsOn(205))[0]?.status).toBe('cancelled');
  });
});
