import type { Segment, TripOverview } from '#shared/api/trips.ts';
import { tripWhen } from './trips-page.tsx';

/** The trip going on now, else the soonest one ahead that is not cancelled. */
export function nextTrip(trips: readonly TripOverview[], today: string): TripOverview | undefined {
  const live = trips.filter((trip) => trip.status !== 'CANCELLED');
  return (
    live.find((trip) => tripWhen(trip, today) === 'in-progress') ??
    live.find((trip) => tripWhen(trip, today) === 'upcoming')
  );
}

/** The first segment of a trip that has not ended yet (by its estimated end). */
export function nextSegment(segments: readonly Segment[], now: Date = new Date()): Segment | undefined {
  return segments.find(
    (segment) =>
      segment.status !== 'CANCELLED' &&
      segment.status !== 'COMPLETED' &&
      segment.status !== 'ARRIVED' &&
      Date.parse(segment.estimatedArrival) > now.getTime(),
  );
}
