import { describe, expect, it } from 'vitest';
import type { FlightOffer } from '#shared/api/flights.ts';
import type { Segment } from '#shared/api/trips.ts';
import { otherFlights } from './other-flights.ts';

const place = (code: string) => ({ code, name: code, city: code, timeZone: 'UTC' });

function segment(
  kind: string,
  departure: string,
  arrival: string,
  serviceNumber: string | null = null,
): Segment {
  return {
    segmentId: `${kind}-${departure}`,
    tripId: 'trip',
    kind,
    title: kind,
    status: 'SCHEDULED',
    origin: place('LHR'),
    destination: place('CDG'),
    scheduledDeparture: departure,
    scheduledArrival: arrival,
    estimatedDeparture: departure,
    estimatedArrival: arrival,
    delayMinutes: 0,
    carrier: null,
    serviceNumber,
    terminal: null,
    gate: null,
    seat: null,
    bookingReference: 'ABC123',
    updatedAt: '2026-11-24T00:00:00Z',
  };
}

function offer(flightNumber: string, departure: string, arrival: string, amount: number): FlightOffer {
  return {
    offerId: flightNumber,
    totalPrice: { amount, currency: 'EUR' },
    legs: [
      {
        departureTime: departure,
        arrivalTime: arrival,
        segments: [{ flightNumber }],
      },
    ],
  } as unknown as FlightOffer;
}

describe('otherFlights', () => {
  const leg = segment('flight', '2026-12-01T08:00:00+00:00', '2026-12-01T09:30:00+00:00', 'WF 1');
  const hotel = segment('stay', '2026-12-01T15:00:00+00:00', '2026-12-03T11:00:00+00:00');
  const now = Date.parse('2026-11-30T00:00:00Z');

  it('lists the flights that keep the trip first, by arrival then price, priced against the booking', () => {
    const listed = otherFlights(
      [
        offer('WF 9', '2026-12-02T07:00:00+00:00', '2026-12-02T08:30:00+00:00', 90),
        offer('WF 3', '2026-12-01T18:00:00+00:00', '2026-12-01T19:30:00+00:00', 150),
        offer('WF 2', '2026-12-01T12:00:00+00:00', '2026-12-01T13:30:00+00:00', 120),
        offer('WF 1', '2026-12-01T08:00:00+00:00', '2026-12-01T09:30:00+00:00', 100),
      ],
      leg,
      [leg, hotel],
      { amount: 100, currency: 'EUR' },
      now,
    );
    expect(listed.map((flight) => [flight.offer.offerId, flight.keepsTrip, flight.difference])).toEqual([
      ['WF 2', true, 20],
      ['WF 3', true, 50],
      ['WF 9', false, -10],
    ]);
  });

  it('leaves out flights already gone, and a difference across currencies', () => {
    const listed = otherFlights(
      [offer('WF 2', '2026-12-01T12:00:00+00:00', '2026-12-01T13:30:00+00:00', 120)],
      leg,
      [leg, hotel],
      { amount: 100, currency: 'GBP' },
      Date.parse('2026-12-01T12:00:00Z'),
    );
    expect(listed).toEqual([]);
    expect(
      otherFlights(
        [offer('WF 2', '2026-12-01T12:00:00+00:00', '2026-12-01T13:30:00+00:00', 120)],
        leg,
        [leg, hotel],
        { amount: 100, currency: 'GBP' },
        now,
      )[0]?.difference,
    ).toBeUndefined();
  });
});
