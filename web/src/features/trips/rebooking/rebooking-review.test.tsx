// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BookingDetails } from '#shared/api/booking-operations.ts';
import type { FlightOffer } from '#shared/api/flights.ts';
import { formattersFor } from '../../../lib/intl-format.ts';
import { renderApp } from '../../../test-support/render-app.tsx';
import { envelope, sentJson, stubFetch } from '../../../test-support/stub-fetch.ts';
import { RebookingReview } from './rebooking-review.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const OFFER_ID = '00000000-0000-4000-8000-0000000000a1';
const BOOKING_ID = '00000000-0000-4000-8000-0000000000b1';

const offer = {
  offerId: OFFER_ID,
  totalPrice: { amount: 200, currency: 'EUR' },
  legs: [
    {
      departureTime: '2030-03-01T14:00:00Z',
      arrivalTime: '2030-03-01T15:30:00Z',
      origin: { code: 'LHR', timeZone: 'Europe/London' },
      destination: { code: 'CDG', timeZone: 'Europe/Paris' },
      stops: 0,
      segments: [{ flightNumber: 'AU 300' }],
    },
  ],
} as unknown as FlightOffer;

const replaced = {
  bookingId: BOOKING_ID,
  reference: 'OLD123',
  bookingProfile: false,
  paymentMethod: null,
  cancellationTerms: {
    refund: { amount: 180, currency: 'EUR' },
    fee: { amount: 0, currency: 'EUR' },
    freeUntil: '2030-03-01T10:00:00Z',
  },
} as unknown as BookingDetails;

const card = (n: number) => ({
  paymentMethodId: `pm_${n}`,
  type: 'card',
  brand: 'Visa',
  last4: `000${n}`,
  expiryMonth: 1,
  expiryYear: 2031,
  holderName: 'Alex',
  bookingProfile: false,
  label: `Company card ${n}`,
});

const priceCheck = (amount: number, previous = amount) => ({
  offerId: OFFER_ID,
  kind: 'flight',
  status: amount === previous ? 'unchanged' : 'changed',
  previousPrice: { amount: previous, currency: 'EUR' },
  price: { amount, currency: 'EUR' },
  expiresAt: '2030-03-01T00:00:00Z',
});

/** The review over stubbed answers: the price checks and the rebookings in turn, the cards on file. */
function open(checks: object[], rebookings: ((init: RequestInit) => object)[]) {
  const sent: { key: string | null; body: unknown }[] = [];
  stubFetch((url, init) => {
    if (url.endsWith('/price-check')) return { json: checks.shift() };
    if (url.startsWith('/api/payment-methods')) return { json: { items: [card(1), card(2)] } };
    if (url === '/api/rebookings') {
      sent.push({ key: new Headers(init.headers).get('Idempotency-Key'), body: sentJson(init) });
      return rebookings.shift()!(init);
    }
    return { status: 404, json: envelope('RESOURCE_NOT_FOUND', 'CHANGE_SELECTION') };
  });
  renderApp(
    <RebookingReview
      tripId="trip"
      offer={offer}
      replaced={replaced}
      format={formattersFor('en-GB')}
      onBack={() => undefined}
    />,
  );
  return sent;
}

const rebooked = () => ({ status: 201, json: {} });

describe('RebookingReview', () => {
  it('tells a declined card with the focus, offers the other card, and changes with it under a new key', async () => {
    const sent = open(
      [priceCheck(200)],
      [
        () => ({
          status: 402,
          json: {
            error: {
              ...envelope('PAYMENT_DECLINED', 'CHANGE_PAYMENT').error,
              reason: { code: 'card_declined', paymentMethodId: 'pm_1' },
            },
          },
        }),
        rebooked,
      ],
    );
    expect(await screen.findByText('Company card 1 ending 0001')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm the change' }));

    const declined = await screen.findByRole('alert');
    expect(declined).toHaveFocus();
    expect(declined).toHaveTextContent('Payment declined: choose another card');
    expect(declined).toHaveTextContent(
      'The card issuer declined Company card 1 ending 0001. Nothing is booked, and booking OLD123 stands as it was.',
    );
    const cards = screen.getByRole('radiogroup', { name: 'Card to pay with' });
    expect(cards).toHaveTextContent('Company card 2 ending 0002');
    expect(cards).not.toHaveTextContent('Company card 1');

    await userEvent.click(screen.getByRole('button', { name: 'Confirm the change' }));
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map(({ body }) => (body as { paymentMethodId: string }).paymentMethodId)).toEqual([
      'pm_1',
      'pm_2',
    ]);
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
  });

  it('tells a price changed while confirming with the focus, the new price and the old, and confirms again at the new one', async () => {
    const sent = open(
      [priceCheck(200), priceCheck(216)],
      [
        () => ({
          status: 409,
          json: envelope('PRICE_CHANGED', 'FIX_INPUT', {
            details: [{ field: 'price', code: 'price_changed', message: 'Now EUR 216.00' }],
          }),
        }),
        rebooked,
      ],
    );
    const confirm = screen.getByRole('button', { name: 'Confirm the change' });
    await vi.waitFor(() => expect(confirm).toBeEnabled());
    await userEvent.click(confirm);

    const moved = await screen.findByRole('alert');
    expect(moved).toHaveFocus();
    expect(moved).toHaveTextContent('The price changed while you were confirming');
    expect(moved).toHaveTextContent(
      'This flight now costs €216.00 (it was €200.00). Nothing is booked, and booking OLD123 stands as it was.',
    );
    expect(screen.getByText('The price has changed: it was €200.00.')).toBeInTheDocument();

    await userEvent.click(confirm);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map(({ body }) => (body as { price: { amount: number } }).price.amount)).toEqual([200, 216]);
  });
});
