import { describe, expect, it } from 'vitest';
import { FlightSearchRequestSchema } from '#shared/upstream/flights.ts';
import { Inventory } from '../inventory/inventory.ts';
import { searchFlights } from './search-flights.ts';

const inventory = new Inventory();
const now = new Date('2026-11-22T10:00:00Z');

function offersFor(origin: string, destination: string, date = '2026-12-10') {
  const request = FlightSearchRequestSchema.parse({
    itinerary: [{ origin, destination, date }],
    passengers: { adults: 1 },
    cabinClass: 'economy',
  });
  const from = inventory.airport(origin);
  const to = inventory.airport(destination);
  if (!from || !to) throw new Error('unknown airport in test');
  return searchFlights({
    seed: 'test',
    request,
    legs: [{ origin: from, destination: to, date }],
    hubs: inventory.majorAirports,
    now,
  }).offers;
}

describe('flight offers', () => {
  it('fly nonstop on short routes and connect through a hub on the longest ones', () => {
    expect(offersFor('MAD', 'BCN').some((offer) => offer.legs[0]?.stops === 0)).toBe(true);
    const ultraLong = offersFor('SYD', 'LHR');
    expect(ultraLong.length).toBeGreaterThan(0);
    expect(ultraLong.every((offer) => (offer.legs[0]?.stops ?? 0) >= 1)).toBe(true);
  });

  it('connect every segment in order with a layover, departing on the requested local date', () => {
    for (const offer of offersFor('ZRH', 'SFO')) {
      const leg = offer.legs[0];
      expect(leg?.departureTime.slice(0, 10)).toBe('2026-12-10');
      leg?.segments.forEach((segment, index) => {
        const next = leg.segments[index + 1];
        if (next) {
          expect(next.origin.code).toBe(segment.destination.code);
          expect(Date.parse(next.departureTime)).toBeGreaterThan(Date.parse(segment.arrivalTime));
        }
      });
    }
  });

  it('work from small airports to small airports', () => {
    expect(offersFor('GKA', 'YXU').length).toBeGreaterThan(0);
  });
});
