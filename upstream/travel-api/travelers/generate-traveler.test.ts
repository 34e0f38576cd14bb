import { describe, expect, it } from 'vitest';
import { Inventory } from '../inventory/inventory.ts';
import { addDays } from '../time-zones.ts';
import { generateTraveler, LONG_HISTORY_TRAVELER_ID } from './generate-traveler.ts';

const airports = new Inventory().majorAirports;
const now = new Date('2026-11-22T10:00:00Z');
const alex = {
  id: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
  email: 'alex@wayfare.example',
  name: 'Alex Morgan',
};

describe('generated travelers', () => {
  it('are the same for the same seed and traveler, and differ for another seed', () => {
    const first = generateTraveler({ seed: 's', traveler: alex, airports, now });
    expect(generateTraveler({ seed: 's', traveler: alex, airports, now })).toEqual(first);
    expect(generateTraveler({ seed: 'other', traveler: alex, airports, now }).bookings).not.toEqual(
      first.bookings,
    );
  });

  it('give every traveler past and upcoming trips, one starting tomorrow, across verticals and statuses', () => {
    const { trips, bookings, profile } = generateTraveler({ seed: 's', traveler: alex, airports, now });
    expect(profile).toMatchObject({ email: 'alex@wayfare.example', bookingProfile: false });
    expect(trips.some((trip) => trip.startDate === addDays('2026-11-22', 1))).toBe(true);
    expect(trips.some((trip) => trip.endDate < '2026-11-22')).toBe(true);
    expect(new Set(bookings.map((booking) => booking.vertical))).toContain('stay');
    for (const trip of trips) {
      for (const segment of trip.segments) {
        expect(segment.scheduledArrival.getTime()).toBeGreaterThan(segment.scheduledDeparture.getTime());
      }
    }
  });

  it('give the long-history traveler more than 120 bookings in every status', () => {
    const { bookings } = generateTraveler({
      seed: 's',
      traveler: { id: LONG_HISTORY_TRAVELER_ID, email: undefined, name: undefined },
      airports,
      now,
    });
    expect(bookings.length).toBeGreaterThanOrEqual(120);
    expect(new Set(bookings.map((booking) => booking.status))).toEqual(
      new Set(['confirmed', 'pending', 'cancelled', 'completed']),
    );
    expect(bookings.every((booking) => booking.bookedAt.getTime() < now.getTime())).toBe(true);
  });
});
