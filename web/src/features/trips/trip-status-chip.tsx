import type { TripOverview } from '#shared/api/trips.ts';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/use-t.ts';

const LABELS: Record<string, [MessageId, string]> = {
  ON_TRACK: ['tripStatus.ON_TRACK', 'chip-success'],
  DISRUPTED: ['tripStatus.DISRUPTED', 'chip-warning'],
  CANCELLED: ['tripStatus.CANCELLED', 'chip-danger'],
  COMPLETED: ['tripStatus.COMPLETED', ''],
};

export function TripStatusChip({ trip }: { trip: Pick<TripOverview, 'status' | 'disruptedSegments'> }) {
  const t = useT();
  const known = LABELS[trip.status];
  const label = known ? t(known[0]) : trip.status.toLowerCase();
  const count =
    trip.status === 'DISRUPTED' && trip.disruptedSegments > 0
      ? ` · ${t('tripStatus.changes', { count: trip.disruptedSegments })}`
      : '';
  return <span className={['chip', known?.[1] ?? 'chip-info'].join(' ').trim()}>{`${label}${count}`}</span>;
}
