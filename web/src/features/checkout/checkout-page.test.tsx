// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch, type StubbedResponse } from '../../test-support/stub-fetch.ts';
import { CheckoutPage } from './checkout-page.tsx';
import { saveSelection } from './checkout-selection.ts';

const OFFER_ID = '00000000-0000-4000-8000-000000000001';
const BOOKING_ID = '00000000-0000-4000-8000-000000000002';
const price = { amount: 200, currency: 'EUR' };

const offer = {
  offerId: OFFER_ID,
  legs: [
    {
      origin: { code: 'ZRH', name: 'Zurich', city: 'Zurich', timeZone: 'Europe/Zurich' },
      destination: { code: 'LHR', name: 'Heathrow', city: 'London', timeZone: 'Europe/London' },
      departureTime: '2027-03-01T07:35:00+01:00',
      arrivalTime: '2027-03-01T08:20:00+00:00',
      durationMinutes: 105,
      stops: 0,
      segments: [
        {
          carrier: { code: 'LX', name: 'Swiss' },
          flightNumber: 'LX 316',
          origin: { code: 'ZRH', name: 'Zurich', city: 'Zurich', timeZone: 'Europe/Zurich' },
          destination: { code: 'LHR', name: 'Heathrow', city: 'London', timeZone: 'Europe/London' },
          departureTime: '2027-03-01T07:35:00+01:00',
          arrivalTime: '2027-03-01T08:20:00+00:00',
          durationMinutes: 105,
          aircraft: 'Airbus A320',
          cabinClass: 'economy',
        },
      ],
    },
  ],
  cabinClass: 'economy',
  totalPrice: price,
  pricePerAdult: price,
  carriers: [{ code: 'LX', name: 'Swiss' }],
  fareConditions: { refundable: false, changeable: true },
  baggage: { cabinBags: 1, checkedBags: 0, checkedBagKg: 0 },
  seatsLeft: 5,
  expiresAt: '2027-01-01T00:00:00Z',
};

const card = (n: number) => ({
  paymentMethodId: `pm_${n}`,
  type: 'card',
  brand: 'Visa',
  last4: `000${n}`,
  expiryMonth: 5,
  expiryYear: 2029,
  holderName: 'Alex Morgan',
  bookingProfile: false,
  label: `Company card ${n}`,
});

const envelope = (
  code: string,
  status: number,
  recoveryAction: string,
  message = code,
  reason?: Record<string, string>,
): StubbedResponse => ({
  status,
  json: { error: { code, message, details: [], recoveryAction, retryAfterSeconds: null, reason } },
});

const booked = {
  bookingId: BOOKING_ID,
  reference: 'ABC234',
  vertical: 'flight',
  status: 'confirmed',
  title: 'Zurich → London',
  startDate: '2027-03-01',
  endDate: '2027-03-01',
  tripId: null,
  segmentId: null,
  location: { city: 'London', countryCode: null },
  totalPrice: price,
  bookingProfile: false,
  bookedAt: '2026-11-24T10:00:00Z',
  offerId: OFFER_ID,
  traveler: null,
  paymentMethod: null,
  flight: null,
  stay: null,
  cancellationTerms: null,
  cancellation: null,
};

interface Stubs {
  priceCheck?: StubbedResponse;
  bookings?: (init: RequestInit) => StubbedResponse | Promise<StubbedResponse>;
  onPriceCheck?: () => void;
}

function stub({ priceCheck, bookings, onPriceCheck }: Stubs) {
  return stubFetch((url, init) => {
    if (url.includes('/price-check')) {
      onPriceCheck?.();
      return (
        priceCheck ?? {
          json: {
            offerId: OFFER_ID,
            kind: 'flight',
            status: 'unchanged',
            previousPrice: price,
            price,
            expiresAt: '2027-01-01T00:00:00Z',
          },
        }
      );
    }
    if (url.startsWith('/api/profile'))
      return {
        json: {
          travelerId: '00000000-0000-4000-8000-000000000009',
          name: 'Alex Morgan',
          email: 'alex@wayfare.example',
          homeAirport: 'ZRH',
          currency: 'EUR',
          locale: 'en-GB',
          bookingProfile: false,
          loyaltyPrograms: [],
          updatedAt: '2026-01-01T00:00:00Z',
        },
      };
    if (url.startsWith('/api/payment-methods')) return { json: { items: [card(1), card(2)] } };
    if (url === '/api/bookings' && bookings) return bookings(init);
    return envelope('RESOURCE_NOT_FOUND', 404, 'CHANGE_SELECTION');
  });
}

function open() {
  saveSelection({ kind: 'flight', offer, returnTo: '/flights?leg=ZRH.LHR.2027-03-01' });
  return renderApp(<CheckoutPage />, { url: `/checkout/${OFFER_ID}`, path: '/checkout/:offerId' });
}

const keyOf = (init: RequestInit) => new Headers(init.headers).get('Idempotency-Key');

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CheckoutPage', () => {
  it('shows a changed price old against new and books only after the traveler says yes', async () => {
    stub({
      priceCheck: {
        json: {
          offerId: OFFER_ID,
          kind: 'flight',
          status: 'changed',
          previousPrice: price,
          price: { amount: 216, currency: 'EUR' },
          expiresAt: '2027-01-01T00:00:00Z',
        },
      },
    });
    open();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The price has changed')).toBeTruthy();
    expect(alert.textContent).toMatch(/€200\.00.*€216\.00/);
    const pay = await screen.findByRole('button', { name: /Book and pay €216\.00/ });
    expect(pay).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByLabelText('Book at the new price'));
    expect(pay).toHaveProperty('disabled', false);
  });

  it('takes a declined card out, books with another under a new key, and resends one key after a dropped connection', async () => {
    const keys: (string | null)[] = [];
    let call = 0;
    stub({
      bookings: (init) => {
        keys.push(keyOf(init));
        call += 1;
        if (call === 1)
          return envelope('PAYMENT_DECLINED', 402, 'CHANGE_PAYMENT', 'The card issuer declined it', {
            code: 'card_declined',
            paymentMethodId: 'pm_1',
          });
        if (call === 2) throw new TypeError('network connection lost');
        return { status: 201, json: booked };
      },
    });
    const { router } = open();
    const pay = await screen.findByRole('button', { name: /Book and pay €200\.00/ });
    await screen.findByLabelText(/Company card 1 ending 0001/);
    await userEvent.click(pay);
    expect(await screen.findByText('Payment declined: choose another payment method')).toBeTruthy();
    // Focus lands on the outcome, not on the page: the button was disabled while the booking ran.
    expect(screen.getByRole('alert')).toHaveFocus();
    // The reason in the app's words (and language), naming the declined card; not the server's sentence.
    expect(screen.getByText(/card issuer declined Company card 1 ending 0001\. Choose another/)).toBeTruthy();
    expect(screen.queryByText(/The card issuer declined it/)).toBeNull();
    expect(screen.queryByLabelText(/Company card 1 ending 0001/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Book and pay/ }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/bookings/${BOOKING_ID}`));
    expect(keys).toHaveLength(3);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
  });

  it('offers to choose again when the offer has expired, back to the results with the search kept', async () => {
    stub({ priceCheck: envelope('OFFER_EXPIRED', 410, 'CHANGE_SELECTION', 'Gone; choose another') });
    const { router } = open();
    expect(await screen.findByText('This offer has expired')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Choose again' }));
    expect(router.state.location.search).toBe('?leg=ZRH.LHR.2027-03-01');
  });

  it('tells the reason of a conflict from the error’s reason, with the date in the traveler’s format', async () => {
    const message = 'You already have flight LX 316 on 2027-03-01 (booking XYZ789)';
    stub({
      bookings: () =>
        envelope('BOOKING_CONFLICT', 409, 'CHANGE_SELECTION', message, {
          code: 'same_flight',
          reference: 'XYZ789',
          flightNumber: 'LX 316',
          date: '2027-03-01',
        }),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: /Book and pay/ }));
    expect(await screen.findByText('This booking clashes with one you have')).toBeTruthy();
    expect(screen.getByRole('alert')).toHaveFocus();
    // Booking the same again would clash again: the way on is to choose something else.
    expect(screen.getByRole('button', { name: /Book and pay/ })).toBeDisabled();
    expect(
      screen.getByText('You already have flight LX 316 on Mon, 1 Mar 2027 (booking XYZ789).'),
    ).toBeTruthy();
    expect(screen.queryByText(message)).toBeNull();
  });

  it('speaks the traveler’s language: an overlapping stay in Spanish, with Spanish dates and prices', async () => {
    const message =
      'Your stay at Casa Lisboa (booking XYZ789) overlaps these dates, 2027-03-01 to 2027-03-04';
    stub({
      bookings: () =>
        envelope('BOOKING_CONFLICT', 409, 'CHANGE_SELECTION', message, {
          code: 'overlapping_stay',
          reference: 'XYZ789',
          hotel: 'Casa Lisboa',
          checkIn: '2027-03-01',
          checkOut: '2027-03-04',
        }),
    });
    activateSpanishForTests();
    try {
      const { router } = open();
      expect(await screen.findByRole('heading', { level: 1, name: 'Reservar este vuelo' })).toBeTruthy();
      await userEvent.click(await screen.findByRole('button', { name: /^Reservar y pagar 200,00\s€$/ }));
      expect(
        await screen.findByRole('heading', { name: 'Esta reserva coincide con otra que ya tienes' }),
      ).toBeTruthy();
      expect(
        screen.getByText(
          'Tu estancia en Casa Lisboa (reserva XYZ789) coincide con estas fechas, del lun, 1 mar 2027 al jue, 4 mar 2027.',
        ),
      ).toBeTruthy();
      expect(screen.queryByText(message)).toBeNull();
      await userEvent.click(screen.getByRole('button', { name: 'Elegir otra cosa' }));
      expect(router.state.location.search).toBe('?leg=ZRH.LHR.2027-03-01');
    } finally {
      activateEnglishForTests();
    }
  });

  it('offers to check the price again when it changed during the booking', async () => {
    let checks = 0;
    stub({
      onPriceCheck: () => (checks += 1),
      bookings: () =>
        envelope(
          'PRICE_CHANGED',
          409,
          'FIX_INPUT',
          'The price is now €216.00; check the price and confirm it',
        ),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: /Book and pay/ }));
    expect(await screen.findByText('The price changed while you were booking')).toBeTruthy();
    expect(screen.queryByText(/The price is now/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Check the price again' }));
    await vi.waitFor(() => expect(checks).toBe(2));
  });

  it('shows a name the server refused for a control character at the field, in the traveler’s language', async () => {
    const serverWords = 'Must not contain control characters, line breaks or text direction overrides';
    stub({
      bookings: () => ({
        status: 422,
        json: {
          error: {
            code: 'VALIDATION_ERROR',
            message: 'Some fields need correcting',
            details: [{ field: 'traveler.name', code: 'control_characters', message: serverWords }],
            recoveryAction: 'FIX_INPUT',
            retryAfterSeconds: null,
          },
        },
      }),
    });
    activateSpanishForTests();
    try {
      open();
      await userEvent.click(await screen.findByRole('button', { name: /^Reservar y pagar/ }));
      const spanish =
        'Contiene un carácter invisible (un salto de línea, un carácter de control o un cambio de dirección del texto). Escríbelo de nuevo sin él.';
      const name = await screen.findByRole('textbox', { name: 'Nombre completo' });
      await vi.waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
      expect((name as HTMLInputElement).labels?.[0]?.textContent).toBe('Nombre completo');
      expect(screen.getByRole('textbox', { name: 'Nombre completo', description: spanish })).toBe(name);
      const notice = screen.getByRole('alert');
      expect(within(notice).getByRole('link', { name: 'Nombre completo' }).getAttribute('href')).toBe(
        `#${name.id}`,
      );
      expect(notice.textContent).toContain(spanish);
      expect(screen.queryByText(serverWords)).toBeNull();
    } finally {
      activateEnglishForTests();
    }
  });
});
