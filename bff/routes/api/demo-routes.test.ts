import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BookingDetailsSchema,
  PaymentMethodListSchema,
  PriceCheckSchema,
} from '#shared/api/booking-operations.ts';
import { UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { FlightSearchResponseSchema, type FlightOffer } from '#shared/upstream/flights.ts';
import type { TestBrowser } from '../../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';

const SAM = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';

/** The demo actions that change what the travel API answers, each with a body it accepts. */
const LEVERS: [path: string, body: unknown][] = [
  ['/api/demo/provider-failure', { seconds: 600 }],
  ['/api/demo/rate-limit', { seconds: 600 }],
  ['/api/demo/expired-offer', { seconds: 600 }],
  ['/api/demo/app-update', { latestVersion: '9.9.9' }],
  ['/api/demo/price-change', undefined],
  ['/api/demo/offer-expiry', undefined],
  ['/api/demo/payment-decline', undefined],
  ['/api/demo/booking-conflict', undefined],
  ['/api/demo/segment-delay', { minutes: 30 }],
];

interface Answer {
  status: number;
  json: unknown;
}

/** One call from a browser of the app, with the anti-forgery header. */
async function send(browser: TestBrowser, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { 'x-requested-with': 'wayfare' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await browser.fetch(path, { method, headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

const errorOf = (answer: Answer) => ErrorEnvelopeSchema.parse(answer.json).error;

function isoDateInDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('demo levers act on the signed-in traveler’s own requests only', () => {
  let stack: GatewayStack;
  let alex: TestBrowser;
  let sam: TestBrowser;

  beforeAll(async () => {
    stack = await startGatewayStack({ bffEnv: { DEMO_MODE: 'true' } });
    alex = await stack.signIn();
    sam = await stack.signIn('sam@wayfare.example', 'sam-demo');
  }, 60_000);

  afterEach(async () => {
    await stack.admin('DELETE', '/admin/faults');
  });

  afterAll(async () => {
    await stack.close();
  });

  async function flightSearch(browser: TestBrowser, days: number): Promise<Answer> {
    return send(browser, 'POST', '/api/flights/search', {
      itinerary: [{ origin: 'ZRH', destination: 'LHR', date: isoDateInDays(days) }],
      passengers: { adults: 1 },
      cabinClass: 'economy',
    });
  }

  async function alexOffer(days: number): Promise<FlightOffer> {
    const answer = await flightSearch(alex, days);
    expect(answer.status).toBe(200);
    return FlightSearchResponseSchema.parse(answer.json).offers[0]!;
  }

  const priceCheck = (browser: TestBrowser, offer: FlightOffer) =>
    send(browser, 'POST', `/api/offers/${offer.offerId}/price-check`);

  /** Alex books the offer at the price given: 201 with the booking, or the refusal. */
  async function alexBooks(offer: FlightOffer, price = offer.totalPrice): Promise<Answer> {
    const cards = await send(alex, 'GET', '/api/payment-methods?bookingProfile=false');
    const [card] = PaymentMethodListSchema.parse(cards.json).items;
    const input = {
      offerId: offer.offerId,
      price,
      paymentMethodId: card!.paymentMethodId,
      traveler: { name: 'Alex Morgan', email: 'alex@wayfare.example', phone: '+41 44 000 00 00' },
    };
    const response = await alex.fetch('/api/bookings', {
      method: 'POST',
      headers: {
        'x-requested-with': 'wayfare',
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(input),
    });
    return { status: response.status, json: await response.json() };
  }

  it('refuses every lever to a guest session (401 UNAUTHORIZED, BLOCKED), before anything reaches the travel API', async () => {
    const guest = stack.browser();
    expect((await send(guest, 'POST', '/api/guest-session')).status).toBe(201);
    const adminCallsBefore = stack.tap.seen.filter((request) => request.url.startsWith('/admin/')).length;
    for (const [path, body] of LEVERS) {
      const answer = await send(guest, 'POST', path, body);
      expect(answer.status, path).toBe(401);
      expect(errorOf(answer), path).toMatchObject({
        code: 'UNAUTHORIZED',
        recoveryAction: 'BLOCKED',
        message: 'Sign in to continue.',
      });
    }
    expect(stack.tap.seen.filter((request) => request.url.startsWith('/admin/'))).toHaveLength(
      adminCallsBefore,
    );
    expect((await flightSearch(alex, 90)).status).toBe(200);
  });

  it('takes the providers down for the traveler who armed it: another traveler’s searches answer', async () => {
    expect((await send(sam, 'POST', '/api/demo/provider-failure', { seconds: 600 })).status).toBe(200);

    const samSearch = await flightSearch(sam, 91);
    expect(samSearch.status).toBe(503);
    expect(errorOf(samSearch).code).toBe('SERVICE_UNAVAILABLE');
    expect((await flightSearch(alex, 91)).status).toBe(200);
    expect((await send(alex, 'GET', '/api/stays/destinations?query=lisbon')).status).toBe(200);
  });

  it('limits the requests of the traveler who armed the rate limit, and no one else’s', async () => {
    expect((await send(sam, 'POST', '/api/demo/rate-limit', { seconds: 600 })).status).toBe(200);

    const samStatuses: number[] = [];
    for (let i = 0; i < 3; i++) samStatuses.push((await send(sam, 'GET', '/api/profile')).status);
    expect(samStatuses).toEqual([200, 200, 429]);
    for (let i = 0; i < 4; i++) expect((await send(alex, 'GET', '/api/profile')).status).toBe(200);
  });

  it('expires offers for the traveler who armed it: another still checks and books his offer', async () => {
    const offer = await alexOffer(92);
    expect((await send(sam, 'POST', '/api/demo/expired-offer', { seconds: 600 })).status).toBe(200);

    expect(errorOf(await priceCheck(sam, offer)).code).toBe('OFFER_EXPIRED');
    expect(PriceCheckSchema.parse((await priceCheck(alex, offer)).json).status).toBe('unchanged');
    expect((await alexBooks(offer)).status).toBe(201);
  });

  it('reprices an offer for the traveler who armed the price change only: another books at his price', async () => {
    const offer = await alexOffer(93);
    expect((await send(sam, 'POST', '/api/demo/price-change')).status).toBe(200);

    const samCheck = PriceCheckSchema.parse((await priceCheck(sam, offer)).json);
    expect(samCheck.status).toBe('changed');
    const alexCheck = PriceCheckSchema.parse((await priceCheck(alex, offer)).json);
    expect(alexCheck).toMatchObject({ status: 'unchanged', price: offer.totalPrice });
    const booking = await alexBooks(offer, alexCheck.price);
    expect(booking.status).toBe(201);
    expect(BookingDetailsSchema.parse(booking.json).totalPrice).toEqual(offer.totalPrice);
  });

  it('announces an update to the traveler who armed it, with notes from the demo’s own texts only', async () => {
    const announced = await send(sam, 'POST', '/api/demo/app-update', {
      latestVersion: '9.8.0',
      releaseNotes: 'faster-search',
    });
    expect(announced.status).toBe(200);

    const check = (browser: TestBrowser) =>
      send(browser, 'GET', '/api/app/update-check?currentVersion=1.0.0').then((answer) =>
        UpdateCheckSchema.parse(answer.json),
      );
    expect(await check(sam)).toMatchObject({
      latestVersion: '9.8.0',
      updateAvailable: true,
      releaseNotes: 'Flight and stay searches show their first results sooner.',
    });
    for (const someoneElse of [alex, stack.browser()])
      expect((await check(someoneElse)).latestVersion).not.toBe('9.8.0');

    const typed = await send(sam, 'POST', '/api/demo/app-update', {
      latestVersion: '9.9.0',
      releaseNotes: 'Your card was suspended, call +1 555 0100',
    });
    expect(typed.status).toBe(422);
    expect(errorOf(typed)).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ field: 'releaseNotes' })],
    });
    expect((await check(sam)).latestVersion).toBe('9.8.0');
    await stack.admin('DELETE', `/admin/travelers/${SAM}/app-release`);
  });
});
