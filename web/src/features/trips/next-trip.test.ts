import { describe, expect, it } from 'vitest';
import type { Segment, TripOverview } from '#shared/api/trips.ts';
import { nextSegment, nextTrip } from './next-trip.ts';

const overview = (id: string, startDate: string, endDate: string, status = 'ON_TRACK'): TripOverview => ({
  tripId: id,
  title: id,
  startDate,
  endDate,
  status,
  cities: [],
  segmentKinds: [],
  disruptedSegments: 0,
});

describe('nextTrip', () => {
  const today = '2026-12-10';
  it('is the trip going on now before any trip ahead', () => {
    const trips = [
      overview('past', '2026-12-01', '2026-12-03'),
      overview('now', '2026-12-09', '2026-12-12'),
      overview('soon', '2026-12-11', '2026-12-14'),
    ];
    expect(nextTrip(trips, today)?.tripId).toBe('now');
  });
  it('is the soonest trip ahead that is not cancelled', () => {
    const trips = [
      overview('past', '2026-12-01', '2026-12-03'),
      overview('cancelled', '2026-12-11', '2026-12-12', 'CANCELLED'),
      overview('soon', '2026-12-13', '2026-12-14'),
      overview('later', '2026-12-20', '2026-12-24'),
    ];
    expect(nextTrip(trips, today)?.tripId).toBe('soon');
  });
  it('is nothing when every trip is over', () => {
    expect(nextTrip([overview('past', '2026-12-01', '2026-12-03')], today)).toBeUndefined();
  });
});

describe('nextSegment', () => {
  const segment = (id: string, end: string, status = 'SCHEDULED') =>
    ({ segmentId: id, status, estimatedArrival: end }) as Segment;
  it('skips what has ended or is cancelled', () => {
    const now = new Date('2026-12-10T12:00:00Z');
    const segments = [
      segment('landed', '2026-12-10T10:00:00+00:00'),
      segment('cancelled', '2026-12-10T15:00:00+00:00', 'CANCELLED'),
      segment('hotel', '2026-12-12T11:00:00+01:00'),
    ];
    expect(nextSegment(segments, now)?.segmentId).toBe('hotel');
  });
});
