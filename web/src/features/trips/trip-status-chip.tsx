import type { TripOverview } from '#shared/api/trips.ts';

const LABELS: Record<string, [string, string]> = {
  ON_TRACK: ['On track', 'chip-success'],
  DISRUPTED: ['Disrupted', 'chip-warning'],
  CANCELLED: ['Cancelled', 'chip-danger'],
  COMPLETED: ['Completed', ''],
};

export function TripStatusChip({ trip }: { trip: Pick<TripOverview, 'status' | 'disruptedSegments'> }) {
  const [label, tone] = LABELS[trip.status] ?? [trip.status.toLowerCase(), 'chip-info'];
  const count =
    trip.status === 'DISRUPTED' && trip.disruptedSegments > 0
      ? ` · ${trip.disruptedSegments} ${trip.disruptedSegments === 1 ? 'change' : 'changes'}`
      : '';
  return <span className={['chip', tone].join(' ').trim()}>{`${label}${count}`}</span>;
}
