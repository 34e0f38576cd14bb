import type { Segment } from '#shared/api/trips.ts';
import type { MessageId } from '../../i18n/i18n.ts';
import type { Translate } from '../../i18n/use-t.ts';
import { dateTimeFormat } from '../../lib/intl-format.ts';

interface SegmentKind {
  label: MessageId;
  start: MessageId;
  end: MessageId;
  /** "45 min before <start>" between the previous segment and this one. */
  gap: MessageId;
  /** How many of this kind a trip has ("2 flights"). */
  count: MessageId;
}

/** How each kind of segment names its two ends and itself; unknown kinds read like a journey. */
const KINDS: Record<string, SegmentKind> = {
  flight: {
    label: 'segmentKind.flight',
    start: 'segmentEnd.departure',
    end: 'segmentEnd.arrival',
    gap: 'segmentGap.departure',
    count: 'trips.kinds.flight',
  },
  rail: {
    label: 'segmentKind.rail',
    start: 'segmentEnd.departure',
    end: 'segmentEnd.arrival',
    gap: 'segmentGap.departure',
    count: 'trips.kinds.rail',
  },
  stay: {
    label: 'segmentKind.stay',
    start: 'segmentEnd.checkIn',
    end: 'segmentEnd.checkOut',
    gap: 'segmentGap.checkIn',
    count: 'trips.kinds.stay',
  },
  car: {
    label: 'segmentKind.car',
    start: 'segmentEnd.pickUp',
    end: 'segmentEnd.dropOff',
    gap: 'segmentGap.pickUp',
    count: 'trips.kinds.car',
  },
};
const JOURNEY: SegmentKind = {
  label: 'segmentKind.journey',
  start: 'segmentEnd.start',
  end: 'segmentEnd.end',
  gap: 'segmentGap.start',
  count: 'trips.kinds.journey',
};

export const segmentKind = (kind: string): SegmentKind => KINDS[kind] ?? JOURNEY;

/** Flights and trains move the traveler between two places; stays and cars stay in one. */
export const isTransport = (segment: Pick<Segment, 'kind'>) =>
  segment.kind === 'flight' || segment.kind === 'rail';

const STATUS_LABELS: Record<string, MessageId> = {
  SCHEDULED: 'segmentStatus.SCHEDULED',
  DELAYED: 'segmentStatus.DELAYED',
  CANCELLED: 'segmentStatus.CANCELLED',
  DEPARTED: 'segmentStatus.DEPARTED',
  ARRIVED: 'segmentStatus.ARRIVED',
  COMPLETED: 'segmentStatus.COMPLETED',
};

export const STATUS_TONES: Record<string, string> = {
  SCHEDULED: 'chip-info',
  DELAYED: 'chip-warning',
  CANCELLED: 'chip-danger',
  DEPARTED: 'chip-success',
  ARRIVED: 'chip-success',
  COMPLETED: '',
};

/** A stay or a car is "confirmed" rather than "on time"; a status the app does not know reads as it is. */
export function statusLabel(segment: Pick<Segment, 'kind' | 'status'>, t: Translate): string {
  if (segment.status === 'SCHEDULED' && !isTransport(segment)) return t('segmentStatus.confirmed');
  const id = STATUS_LABELS[segment.status];
  return id ? t(id) : segment.status.toLowerCase();
}

/** "GMT+1", "CET": the short name of a zone at an instant, in the traveler's locale. */
export function zoneName(instant: string, timeZone: string, locale: string): string {
  try {
    return (
      dateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
        .formatToParts(new Date(instant))
        .find((part) => part.type === 'timeZoneName')?.value ?? timeZone
    );
  } catch {
    return timeZone;
  }
}
