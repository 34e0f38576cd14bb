import { afterEach, describe, expect, it } from 'vitest';
import type { Notification, NotificationFacts } from '#shared/api/notifications.ts';
import { DELAYED_FLIGHT } from '#shared/test-support/delayed-flight.ts';
import { i18n } from '../../i18n/i18n.ts';
import { formattersFor } from '../../lib/intl-format.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';
import { notificationText } from './notification-text.ts';

afterEach(activateEnglishForTests);

const t = (id: Parameters<typeof i18n._>[0], values?: Record<string, unknown>) => i18n._(id, values);
const american = formattersFor('en-US');
const spanish = formattersFor('es-ES');

const flight = DELAYED_FLIGHT;

const notification = (eventType: string, facts: NotificationFacts | null): Notification => ({
  id: 'n1',
  tripId: flight.tripId,
  segmentId: flight.segmentId,
  eventType,
  severity: 'warning',
  title: 'The travel API’s title',
  body: 'The travel API’s body.',
  deepLink: 'wayfare://trips/x/segment/y',
  channel: 'push',
  dispatchedAt: '2026-11-30T10:00:00Z',
  readAt: null,
  isDedupSkipped: false,
  deliveryStatus: 'delivered',
  createdAt: '2026-11-30T10:00:00Z',
  facts,
});

const delay = notification('SEGMENT_DELAYED', {
  segment: flight,
  previous: { delayMinutes: 0, gate: 'C31' },
});

describe('notificationText', () => {
  it('writes a delay on the interface’s clock: 12 hours in en-US, 24 in es-ES', () => {
    expect(notificationText(delay, american, t)).toEqual({
      title: 'CL 2568 is delayed by 6h 20m',
      body: 'Boston → Seattle: new departure 4:00 PM (scheduled 9:40 AM), arriving 7:15 PM.',
    });
    activateSpanishForTests();
    expect(notificationText(delay, spanish, t)).toEqual({
      title: 'CL 2568 se retrasa 6h 20min',
      body: 'Boston → Seattle: nueva salida 16:00 (prevista 9:40), llegada 19:15.',
    });
  });

  it('names the cities of a route in the interface’s language where the segment gives their names', () => {
    const named = notification('SEGMENT_DELAYED', {
      segment: {
        ...flight,
        origin: { ...flight.origin, city: 'New York', cityNames: { en: 'New York', es: 'Nueva York' } },
        destination: { ...flight.destination, city: 'London', cityNames: { en: 'London', es: 'Londres' } },
      },
      previous: { delayMinutes: 0, gate: 'C31' },
    });
    expect(notificationText(named, american, t).body).toMatch(/^New York → London: /);
    activateSpanishForTests();
    expect(notificationText(named, spanish, t).body).toMatch(/^Nueva York → Londres: /);
  });

  it('names the new day of a delay into the next day, and what it adds to an earlier one', () => {
    const late = notification('SEGMENT_DELAYED', {
      segment: { ...flight, estimatedDeparture: '2026-12-02T07:45:00-05:00', delayMinutes: 1325 },
      previous: { delayMinutes: 380, gate: 'C31' },
    });
    activateSpanishForTests();
    const { body } = notificationText(late, spanish, t);
    expect(body).toContain('nueva salida mié, 2 dic, 07:45 (prevista mar, 1 dic, 09:40)');
    expect(body).toContain('15h 45min más de lo anunciado antes.');
  });

  it('writes a gate change, check-in and a cancellation in Spanish', () => {
    activateSpanishForTests();
    const gate = notification('GATE_CHANGED', {
      segment: flight,
      previous: { delayMinutes: 380, gate: 'B12' },
    });
    expect(notificationText(gate, spanish, t)).toEqual({
      title: 'CL 2568: cambio de puerta a C31',
      body: 'Boston → Seattle sale ahora por la puerta C31 (antes B12). Terminal B.',
    });
    const checkIn = notification('CHECK_IN_OPEN', {
      segment: flight,
      previous: { delayMinutes: 0, gate: 'C31' },
    });
    expect(notificationText(checkIn, spanish, t).title).toBe('Facturación abierta para CL 2568');
    expect(notificationText(checkIn, spanish, t).body).toBe(
      'Boston → Seattle sale el mar, 1 dic, 16:00. Factura ya.',
    );
    const cancelled = notification('SEGMENT_CANCELLED', { segment: flight });
    expect(notificationText(cancelled, spanish, t).title).toBe('CL 2568 se ha cancelado');
  });

  it('writes a booking confirmed and cancelled from its facts, a return as there and back', () => {
    const booking = {
      reference: 'K7P2QX',
      kind: 'flight',
      cities: ['Zurich', 'London', 'Zurich'],
      propertyName: null,
      startDate: '2026-12-01',
      endDate: '2026-12-04',
      totalPrice: { amount: 412.5, currency: 'EUR' },
      paymentMethod: { brand: 'Visa', last4: '4242' },
      refund: null,
    };
    const confirmed = notification('BOOKING_CONFIRMED', { booking });
    expect(notificationText(confirmed, american, t)).toEqual({
      title: 'Booking confirmed: Zurich → London and back',
      body: 'Reference K7P2QX, Tue, Dec 1 to Fri, Dec 4, €412.50 paid with Visa ending 4242.',
    });
    activateSpanishForTests();
    expect(notificationText(confirmed, spanish, t)).toEqual({
      title: 'Reserva confirmada: Zurich → London, ida y vuelta',
      body: 'Referencia K7P2QX, del mar, 1 dic al vie, 4 dic, 412,50\u00a0€ pagados con Visa terminada en 4242.',
    });
    const cancelled = notification('BOOKING_CANCELLED', {
      booking: {
        ...booking,
        kind: 'stay',
        cities: ['Lisbon'],
        propertyName: 'Casa do Rio',
        refund: { amount: 80, currency: 'EUR' },
      },
    });
    expect(notificationText(cancelled, spanish, t)).toEqual({
      title: 'Reserva cancelada: Casa do Rio',
      body: 'Referencia K7P2QX. Reembolso: 80,00\u00a0€.',
    });
  });

  it('names a booking’s cities in the interface’s language where its facts give their names', () => {
    const booking = {
      reference: 'K7P2QX',
      kind: 'flight',
      cities: ['Zurich', 'London', 'Zurich'],
      cityNames: [
        { en: 'Zurich', es: 'Zúrich' },
        { en: 'London', es: 'Londres' },
        { en: 'Zurich', es: 'Zúrich' },
      ],
      propertyName: null,
      startDate: '2026-12-01',
      endDate: '2026-12-04',
      totalPrice: { amount: 412.5, currency: 'EUR' },
      paymentMethod: null,
      refund: null,
    };
    const confirmed = notification('BOOKING_CONFIRMED', { booking });
    expect(notificationText(confirmed, american, t).title).toBe(
      'Booking confirmed: Zurich → London and back',
    );
    activateSpanishForTests();
    expect(notificationText(confirmed, spanish, t).title).toBe(
      'Reserva confirmada: Zúrich → Londres, ida y vuelta',
    );
  });

  it('writes a booking changed from its facts: the new booking, then the one it replaced and its refund', () => {
    const booking = {
      reference: 'N3W9RT',
      kind: 'flight',
      cities: ['Boston', 'Seattle'],
      propertyName: null,
      startDate: '2026-12-01',
      endDate: '2026-12-01',
      totalPrice: { amount: 230, currency: 'USD' },
      paymentMethod: { brand: 'Visa', last4: '4242' },
      refund: null,
    };
    const changed = notification('BOOKING_CHANGED', {
      booking,
      replaced: { ...booking, reference: 'ABC123', refund: { amount: 199.5, currency: 'USD' } },
    });
    expect(notificationText(changed, american, t)).toEqual({
      title: 'Booking changed: Boston → Seattle',
      body:
        'Reference N3W9RT, Tue, Dec 1, $230.00 paid with Visa ending 4242. ' +
        'It replaces booking ABC123, now cancelled. Refund: $199.50.',
    });
    activateSpanishForTests();
    expect(notificationText(changed, spanish, t)).toEqual({
      title: 'Reserva cambiada: Boston → Seattle',
      body:
        'Referencia N3W9RT, mar, 1 dic, 230,00\u00a0US$ pagados con Visa terminada en 4242. ' +
        'Sustituye a la reserva ABC123, ya cancelada. Reembolso: 199,50\u00a0US$.',
    });
    const noRefund = notification('BOOKING_CHANGED', {
      booking,
      replaced: { ...booking, reference: 'ABC123' },
    });
    expect(notificationText(noRefund, spanish, t).body).toMatch(
      /Sustituye a la reserva ABC123, ya cancelada\. Sin reembolso\.$/,
    );
    // Without what it replaced, the change is shown as the travel API wrote it.
    expect(notificationText(notification('BOOKING_CHANGED', { booking }), spanish, t).lang).toBe('en');
  });

  it('shows the travel API’s English, marked so, when the facts are missing or the kind is unknown', () => {
    activateSpanishForTests();
    const english = { title: 'The travel API’s title', body: 'The travel API’s body.', lang: 'en' };
    expect(notificationText(notification('SEGMENT_DELAYED', null), spanish, t)).toEqual(english);
    expect(notificationText(notification('SEAT_CHANGED', { segment: flight }), spanish, t)).toEqual(english);
  });
});
