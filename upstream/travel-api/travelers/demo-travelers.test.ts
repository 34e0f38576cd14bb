import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db.ts';
import { Inventory } from '../inventory/inventory.ts';
import { addDays, localDate } from '../time-zones.ts';
import { TripStore } from '../trips/trip-store.ts';
import { TravelerStore, type TravelerIdentity } from './traveler-store.ts';

const airports = new Inventory().majorAirports;

/** The demo travelers as the README's table describes them: one profile on every day and machine. */
const DEMO: readonly { identity: TravelerIdentity; profile: Record<string, unknown> }[] = [
  {
    identity: {
      id: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
      email: 'alex@wayfare.example',
      name: 'Alex Morgan',
    },
    profile: { homeAirport: 'LHR', locale: 'en-GB', currency: 'GBP', bookingProfile: false },
  },
  {
    identity: {
      id: '5f1c2a7e-0b1d-4c5e-9a01-000000000002',
      email: 'sam@wayfare.example',
      name: 'Sam Rivera',
    },
    profile: { homeAirport: 'BOS', locale: 'en-US', currency: 'USD', bookingProfile: true },
  },
  {
    identity: {
      id: '5f1c2a7e-0b1d-4c5e-9a01-000000000003',
      email: 'jordan@wayfare.example',
      name: 'Jordan Lee',
    },
    profile: { homeAirport: 'AMS', locale: 'en-GB', currency: 'EUR', bookingProfile: false },
  },
];
const TEST_TRAVELER: TravelerIdentity = {
  id: '5f1c2a7e-0b1d-4c5e-9a01-100000000001',
  email: 'traveler1@wayfare.test',
  name: 'Test Traveler 1',
};

/**
 * Days on which a traveler may first be seen: the four consecutive days on which Sam used to be
 * Bangkok/en-GB, Madrid/es-ES, Singapore/en-GB and Boston/en-US, either side of a clock change, a
 * leap day and the turn of a year, at different hours.
 */
const DAYS = [
  '2026-11-24T09:00:00Z',
  '2026-11-25T23:30:00Z',
  '2026-11-26T00:10:00Z',
  '2026-11-27T14:00:00Z',
  '2027-03-28T12:00:00Z',
  '2028-02-29T06:00:00Z',
  '2028-12-31T22:00:00Z',
];

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'demo-travelers-test-'));
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

/** A fresh service (its own database) that first sees the traveler at the pinned clock's moment. */
function firstSight(identity: TravelerIdentity, day: string, seed = 'wayfare') {
  vi.setSystemTime(new Date(day));
  const db = openDatabase(path.join(dir, `${seed}-${day}`));
  try {
    const trips = new TripStore(db);
    const travelers = new TravelerStore(db, { seed, airports, trips });
    travelers.ensure(identity);
    const { updatedAt: _updatedAt, ...profile } = travelers.profile(identity.id)!;
    const listed = trips.listTrips(identity.id, { limit: 100, offset: 0 });
    return { profile, trips: listed.items };
  } finally {
    db.close();
  }
}

describe('demo travelers', () => {
  it.each(DEMO.map((demo) => [demo.identity.name, demo] as const))(
    '%s has the same profile, home, locale, currency and traveler kind, on every day and with any seed',
    (_name, demo) => {
      const profiles = DAYS.flatMap((day) =>
        ['wayfare', 'another-machine'].map((seed) => firstSight(demo.identity, day, seed).profile),
      );
      for (const profile of profiles) {
        expect(profile).toMatchObject({
          ...demo.profile,
          email: demo.identity.email,
          name: demo.identity.name,
        });
        expect(profile).toEqual(profiles[0]);
      }
    },
  );

  it('trips follow the calendar: the same trips each day, one of them starting the day after first sight', () => {
    for (const demo of DEMO) {
      const seen = DAYS.map((day) => ({ day, trips: firstSight(demo.identity, day).trips }));
      for (const { day, trips } of seen) {
        const home = airports.find((airport) => airport.code === demo.profile.homeAirport)!;
        const today = localDate(new Date(day), home.timeZone);
        expect(trips.some((trip) => trip.startDate === addDays(today, 1))).toBe(true);
        expect(trips.map((trip) => trip.title)).toEqual(seen[0]!.trips.map((trip) => trip.title));
      }
    }
  });

  it.each(DEMO.map((demo) => [demo.identity.name, demo] as const))(
    '%s takes a train: rail segments with their operator, coach and seat',
    (_name, demo) => {
      const db = openDatabase(path.join(dir, 'rail'));
      try {
        const trips = new TripStore(db);
        new TravelerStore(db, { seed: 'wayfare', airports, trips }).ensure(demo.identity);
        const trains = trips.listSegments(demo.identity.id).filter((segment) => segment.kind === 'rail');
        expect(trains.length).toBeGreaterThan(0);
        for (const train of trains) {
          expect(train).toMatchObject({
            carrier: { code: 'XR', name: 'Express Rail' },
            gate: null,
            terminal: null,
          });
          expect(train.serviceNumber).toMatch(/^XR \d{3}$/);
          expect(train.coach).toMatch(/^\d{1,2}$/);
          expect(train.seat).toMatch(/^\d{2}$/);
        }
      } finally {
        db.close();
      }
    },
  );

  it('a test traveler too gets one profile whatever the day', () => {
    const profiles = DAYS.map((day) => firstSight(TEST_TRAVELER, day).profile);
    for (const profile of profiles) expect(profile).toEqual(profiles[0]);
  });
});
