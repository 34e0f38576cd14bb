import { BOOKING_STATUSES } from '#shared/api/booking-values.ts';
import { useT, type Translate } from '../i18n/use-t.ts';

const STATUS_TONES: Record<string, string> = {
  confirmed: 'chip-success',
  pending: 'chip-warning',
  cancelled: 'chip-danger',
  completed: '',
};

type KnownStatus = (typeof BOOKING_STATUSES)[number];
const isKnown = (status: string): status is KnownStatus =>
  (BOOKING_STATUSES as readonly string[]).includes(status);

/** A booking's status in the traveler's language; a status this version does not know reads as sent. */
export function statusLabel(status: string, t: Translate): string {
  return isKnown(status) ? t(`bookingStatus.${status}`) : status.replaceAll('_', ' ');
}

export function BookingStatusChip({ status }: { status: string }) {
  const t = useT();
  return (
    <span className={['chip', STATUS_TONES[status] ?? 'chip-info'].join(' ')}>{statusLabel(status, t)}</span>
  );
}
