import { mkdtemp, rm } from 'node:fs/promises';
import type { DatabaseSync } from 'node:sqlite';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db.ts';
import { Inventory } from '../inventory/inventory.ts';
import { TravelerStore } from '../travelers/traveler-store.ts';
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
