import { describe, expect, it } from 'vitest';
import { Inventory } from '../inventory/inventory.ts';
import { streetsOf } from '../stays/street-address.ts';
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

  it('give every traveler an upcoming flight, even one whose nearest trips all go by train', () => {
    // With the default seed this traveler lives in Zurich and its trips of the next months went to Paris,
    // Amsterdam and Frankfurt by train: check-in and gate events had no flight to apply to.
    const byTrain = { id: 'af7ea1bd-7e8d-40ac-ac60-8ef4a6dfd84f', email: undefined, name: undefined };
    const seen = new Date('2026-11-26T16:00:00Z');
    const { trips } = generateTraveler({ seed: 'wayfare', traveler: byTrain, airports, now: seen });
    const upcoming = trips.filter((trip) => trip.startDate > '2026-11-26');
    expect(upcoming.flatMap((trip) => trip.segments.map((segment) => segment.kind))).toContain('rail');
    const flights = upcoming.flatMap((trip) => trip.segments).filter((segment) => segment.kind === 'flight');
    expect(flights.some((flight) => flight.scheduledDeparture > seen)).toBe(true);
  });

  it('never send a train or a flight from a city to the same city, whatever the seed, traveler or day', () => {
    // Alex (London Heathrow) was given "London → London" trains: another London airport is within rail reach.
    const travelers = [
      alex,
      { id: '5f1c2a7e-0b1d-4c5e-9a01-000000000002', email: undefined, name: undefined },
      { id: '5f1c2a7e-0b1d-4c5e-9a01-000000000003', email: undefined, name: undefined },
      ...Array.from({ length: 12 }, (_, index) => ({
        id: `af7ea1bd-7e8d-40ac-ac60-${String(index).padStart(12, '0')}`,
        email: undefined,
        name: undefined,
      })),
    ];
    const days = [
      '2026-11-22T10:00:00Z',
      '2026-11-26T16:00:00Z',
      '2027-03-28T12:00:00Z',
      '2028-02-29T06:00:00Z',
    ];
    const sameCity: string[] = [];
    for (const seed of ['wayfare', 's', 'another-machine', 'ci']) {
      for (const traveler of travelers) {
        for (const day of days) {
          const { trips } = generateTraveler({ seed, traveler, airports, now: new Date(day) });
          for (const segment of trips.flatMap((trip) => trip.segments)) {
            if (segment.kind !== 'rail' && segment.kind !== 'flight') continue;
            if (segment.origin.city === segment.destination.city)
              sameCity.push(`${seed} ${day}: ${segment.title}`);
          }
        }
      }
    }
    expect(sameCity).toEqual([]);
  });

  it('give every hotel and car depot a street address as its city’s country writes it', () => {
    // "Rua Augusta, 12, Lisbon", never "8 King Street, Lisbon"; flights and trains have none.
    const { trips, bookings } = generateTraveler({
      seed: 's',
      traveler: { id: LONG_HISTORY_TRAVELER_ID, email: undefined, name: undefined },
      airports,
      now,
    });
    const countryOf = new Map(bookings.map((booking) => [booking.segmentId, booking.countryCode]));
    const located = trips
      .flatMap((trip) => trip.segments)
      .filter((segment) => segment.kind === 'stay' || segment.kind === 'car');
    expect(new Set(located.map((segment) => countryOf.get(segment.segmentId))).size).toBeGreaterThan(5);
    for (const segment of located) {
      const street = streetsOf(countryOf.get(segment.segmentId) ?? '').find((name) =>
        segment.address?.includes(name),
      );
      expect(street, `${segment.address} in ${segment.destination.city}`).toBeDefined();
      expect(segment.address).toMatch(new RegExp(`\\d.*, ${segment.destination.city}$`));
    }
    for (const segment of trips.flatMap((trip) => trip.segments))
      if (segment.kind === 'flight' || segment.kind === 'rail') expect(segment.address).toBeUndefined();
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
