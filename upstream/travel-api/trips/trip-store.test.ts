import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { DatabaseSync } from 'node:sqlite';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db.ts';
import { Inventory } from '../inventory/inventory.ts';
import { TravelerStore } from '../travelers/traveler-store.ts';
import type { SegmentRecord } from '../travelers/traveler-records.ts';
import type { SegmentDetails } from '#shared/upstream/trips.ts';
import { TripStore } from './trip-store.ts';

const ALEX = {
  id: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
  email: 'alex@wayfare.example',
  name: 'Alex Morgan',
};
const SAM = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';
let dir: string;
let db: DatabaseSync;
let trips: TripStore;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'trip-store-test-'));
  db = openDatabase(dir);
  trips = new TripStore(db);
  new TravelerStore(db, { seed: 'test', airports: new Inventory().majorAirports, trips }).ensure(ALEX);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('trip store', () => {
  it('lists a traveler’s segments in departure order and upcoming ones from now', () => {
    const segments = trips.listSegments(ALEX.id);
    expect(segments.length).toBeGreaterThan(10);
    const departures = segments.map((segment) => Date.parse(segment.scheduledDeparture));
    expect(departures).toEqual([...departures].sort((a, b) => a - b));
    const upcoming = trips.upcomingSegments(ALEX.id);
    expect(upcoming.length).toBeGreaterThan(0);
    expect(upcoming.every((segment) => Date.parse(segment.estimatedDeparture) > Date.now())).toBe(true);
    expect(trips.listSegments(SAM)).toEqual([]);
  });

  it('delays a segment: estimated times move, scheduled ones stay, status becomes DELAYED and recovers', () => {
    const segment = trips.upcomingSegments(ALEX.id).find((item) => item.kind === 'flight');
    if (!segment) throw new Error('no upcoming flight');
    const delayed = trips.delaySegment(ALEX.id, segment.tripId, segment.segmentId, 45);
    expect(delayed).toMatchObject({
      status: 'DELAYED',
      delayMinutes: 45,
      scheduledDeparture: segment.scheduledDeparture,
    });
    expect(Date.parse(delayed?.estimatedDeparture ?? '') - Date.parse(segment.scheduledDeparture)).toBe(
      45 * 60_000,
    );
    expect(trips.delaySegment(ALEX.id, segment.tripId, segment.segmentId, 15)?.delayMinutes).toBe(60);
    expect(trips.delaySegment(ALEX.id, segment.tripId, segment.segmentId, -60)).toMatchObject({
      status: 'SCHEDULED',
      delayMinutes: 0,
    });
  });

  it('updates status, gate and terminal, and keeps other travelers’ segments out of reach', () => {
    const segment = trips.upcomingSegments(ALEX.id)[0];
    if (!segment) throw new Error('no upcoming segment');
    expect(
      trips.updateSegmentStatus(ALEX.id, segment.tripId, segment.segmentId, {
        status: 'CANCELLED',
        gate: 'Z9',
      }),
    ).toMatchObject({ status: 'CANCELLED', gate: 'Z9' });
    expect(trips.getSegment(SAM, segment.tripId, segment.segmentId)).toBeUndefined();
    expect(trips.delaySegment(SAM, segment.tripId, segment.segmentId, 10)).toBeUndefined();
  });
});

const MADRID = {
  code: 'MAD',
  name: 'Adolfo Suárez Madrid–Barajas Airport',
  city: 'Madrid',
  timeZone: 'Europe/Madrid',
};
const BARCELONA = {
  code: 'BCN',
  name: 'Barcelona–El Prat Airport',
  city: 'Barcelona',
  timeZone: 'Europe/Madrid',
};
const LISBON = { code: 'LIS', name: 'Lisbon Airport', city: 'Lisbon', timeZone: 'Europe/Lisbon' };
type Place = typeof MADRID;

/** A booked flight on `date` (10:00 to 11:30 UTC), as the booking service plans one. */
function flight(from: Place, to: Place, date: string): Omit<SegmentRecord, 'tripId' | 'position'> {
  return {
    segmentId: randomUUID(),
    kind: 'flight',
    title: `${from.city} → ${to.city}`,
    status: 'SCHEDULED',
    origin: from,
    destination: to,
    scheduledDeparture: new Date(`${date}T10:00:00Z`),
    scheduledArrival: new Date(`${date}T11:30:00Z`),
    delayMinutes: 0,
    carrier: { code: 'WF', name: 'Wayfare Air' },
    serviceNumber: 'WF 100',
    terminal: null,
    gate: null,
    seat: null,
    bookingReference: 'ABC234',
  };
}

/** A booked hotel in `place`'s city from `checkIn` to `checkOut`. */
function stay(place: Place, checkIn: string, checkOut: string): Omit<SegmentRecord, 'tripId' | 'position'> {
  const hotel = { code: null, name: `Grand Hotel ${place.city}`, city: place.city, timeZone: place.timeZone };
  return {
    ...flight(place, place, checkIn),
    kind: 'stay',
    title: hotel.name,
    origin: hotel,
    destination: hotel,
    scheduledDeparture: new Date(`${checkIn}T14:00:00Z`),
    scheduledArrival: new Date(`${checkOut}T10:00:00Z`),
    carrier: null,
    serviceNumber: null,
  };
}

describe('train seats', () => {
  it('keeps a train’s coach apart from its seat, and splits the seats stored as one text before', () => {
    const trainOf = (records: readonly SegmentDetails[]) =>
      records.find((segment) => segment.kind === 'rail');
    const traveler = randomUUID();
    const { tripId } = trips.addBookedSegments(
      traveler,
      { title: 'Barcelona trip', startDate: '2026-12-18', endDate: '2026-12-18' },
      [{ ...flight(MADRID, BARCELONA, '2026-12-18'), kind: 'rail', seat: '23', coach: '4' }],
      new Date(),
    );
    expect(trainOf(trips.listSegments(traveler))).toMatchObject({ tripId, coach: '4', seat: '23' });

    // A store written before coaches had a column of their own.
    db.exec(`UPDATE segments SET seat = 'Coach 11, seat 7' WHERE trip_id = '${tripId}';
      ALTER TABLE segments DROP COLUMN coach;
      DELETE FROM schema_migrations WHERE name = 'core-006-segment-coach';`);
    const reopened = new TripStore(db);
    expect(trainOf(reopened.listSegments(traveler))).toMatchObject({ coach: '11', seat: '7' });
  });
});

describe('city names', () => {
  it('names each city of a trip and of its segments in the languages the place data has', () => {
    const inventory = new Inventory();
    const named = new TripStore(db, (place) => inventory.cityNamesOf(place));
    const traveler = randomUUID();
    const london = {
      code: 'LHR',
      name: 'London Heathrow Airport',
      city: 'London',
      timeZone: 'Europe/London',
    };
    const { tripId } = named.addBookedSegments(
      traveler,
      { title: 'London trip', startDate: '2026-12-18', endDate: '2026-12-18' },
      [flight(BARCELONA, london, '2026-12-18')],
      new Date(),
    );
    const trip = named.getTrip(traveler, tripId)!;
    expect(trip.cities).toEqual(['London']);
    expect(trip.cityNames).toEqual([{ en: 'London', es: 'Londres' }]);
    expect(trip.segments[0]!.destination).toMatchObject({ city: 'London', cityNames: { es: 'Londres' } });
    expect(named.listTrips(traveler, { limit: 1, offset: 0 }).items[0]!.cityNames).toEqual([
      { en: 'London', es: 'Londres' },
    ]);
  });
});

describe('which trip a booking joins', () => {
  const NOW = new Date('2026-11-20T12:00:00Z');
  const traveler = randomUUID();
  const book = (
    segment: Omit<SegmentRecord, 'tripId' | 'position'>,
    startDate: string,
    endDate = startDate,
  ) =>
    trips.addBookedSegments(
      traveler,
      { title: `${segment.destination.city} trip`, startDate, endDate },
      [segment],
      NOW,
    ).tripId;
  const tripsOf = () => trips.listTrips(traveler, { limit: 100, offset: 0 }, NOW).items;

  it('joins the trip to the same city whose dates it overlaps, widening it', () => {
    const first = book(stay(BARCELONA, '2026-12-18', '2026-12-21'), '2026-12-18', '2026-12-21');
    expect(book(flight(MADRID, BARCELONA, '2026-12-19'), '2026-12-19')).toBe(first);
    expect(book(stay(BARCELONA, '2026-12-20', '2026-12-23'), '2026-12-20', '2026-12-23')).toBe(first);
    expect(tripsOf()).toEqual([
      expect.objectContaining({ tripId: first, startDate: '2026-12-18', endDate: '2026-12-23' }),
    ]);
  });

  it('joins the trip it adjoins within a day: a flight the next day, the hotel after it, the flight back', () => {
    const first = book(flight(MADRID, BARCELONA, '2026-12-18'), '2026-12-18');
    expect(book(flight(MADRID, BARCELONA, '2026-12-19'), '2026-12-19')).toBe(first);
    expect(book(stay(BARCELONA, '2026-12-20', '2026-12-22'), '2026-12-20', '2026-12-22')).toBe(first);
    expect(book(flight(BARCELONA, MADRID, '2026-12-23'), '2026-12-23')).toBe(first);
    expect(tripsOf()).toEqual([
      expect.objectContaining({
        tripId: first,
        startDate: '2026-12-18',
        endDate: '2026-12-23',
        cities: ['Barcelona'],
      }),
    ]);
  });

  it('starts a new trip more than a day away from the trip to the same city', () => {
    const first = book(flight(MADRID, BARCELONA, '2026-12-18'), '2026-12-18');
    const later = book(flight(MADRID, BARCELONA, '2026-12-20'), '2026-12-20');
    const earlier = book(stay(BARCELONA, '2026-12-09', '2026-12-11'), '2026-12-09', '2026-12-11');
    expect(new Set([first, later, earlier]).size).toBe(3);
    expect(tripsOf().map((trip) => trip.startDate)).toEqual(['2026-12-09', '2026-12-18', '2026-12-20']);
  });

  it('starts a new trip for another destination, even on the same days', () => {
    const barcelona = book(flight(MADRID, BARCELONA, '2026-12-18'), '2026-12-18');
    const lisbon = book(flight(MADRID, LISBON, '2026-12-18'), '2026-12-18');
    expect(lisbon).not.toBe(barcelona);
    expect(tripsOf().map((trip) => trip.cities)).toEqual(expect.arrayContaining([['Barcelona'], ['Lisbon']]));
  });

  it('starts a new trip beside a cancelled one, which keeps its dates', () => {
    const cancelled = book(flight(MADRID, BARCELONA, '2026-12-18'), '2026-12-18');
    const [segment] = trips.getTrip(traveler, cancelled, NOW)!.segments;
    trips.updateSegmentStatus(traveler, cancelled, segment!.segmentId, { status: 'CANCELLED' }, NOW);
    const next = book(flight(MADRID, BARCELONA, '2026-12-19'), '2026-12-19');
    expect(next).not.toBe(cancelled);
    expect(trips.getTrip(traveler, cancelled, NOW)).toMatchObject({
      status: 'CANCELLED',
      startDate: '2026-12-18',
      endDate: '2026-12-18',
    });
  });

  it('joins the trip it names, whatever its destination and dates', () => {
    const barcelona = book(flight(MADRID, BARCELONA, '2026-12-18'), '2026-12-18');
    expect(
      trips.addBookedSegments(
        traveler,
        { title: 'Lisbon trip', startDate: '2027-01-05', endDate: '2027-01-05', tripId: barcelona },
        [flight(MADRID, LISBON, '2027-01-05')],
        NOW,
      ).tripId,
    ).toBe(barcelona);
  });
});
