import type { Segment } from '#shared/api/trips.ts';

/** How each kind of segment names its two ends and itself; unknown kinds read like a journey. */
const KINDS: Record<string, { label: string; start: string; end: string }> = {
  flight: { label: 'Flight', start: 'Departure', end: 'Arrival' },
  rail: { label: 'Train', start: 'Departure', end: 'Arrival' },
  stay: { label: 'Stay', start: 'Check-in', end: 'Check-out' },
  car: { label: 'Car', start: 'Pick-up', end: 'Drop-off' },
};
const JOURNEY = { label: 'Journey', start: 'Start', end: 'End' };

export const segmentKind = (kind: string) => KINDS[kind] ?? JOURNEY;

/** Flights and trains move the traveler between two places; stays and cars stay in one. */
export const isTransport = (segment: Pick<Segment, 'kind'>) =>
  segment.kind === 'flight' || segment.kind === 'rail';

export const STATUS_LABELS: Record<string, string> = {
  SCHEDULED: 'On time',
  DELAYED: 'Delayed',
  CANCELLED: 'Cancelled',
  DEPARTED: 'Departed',
  ARRIVED: 'Arrived',
  COMPLETED: 'Completed',
};

export const STATUS_TONES: Record<string, string> = {
  SCHEDULED: 'chip-info',
  DELAYED: 'chip-warning',
  CANCELLED: 'chip-danger',
  DEPARTED: 'chip-success',
  ARRIVED: 'chip-success',
  COMPLETED: '',
};

/** A stay or a car is "confirmed" rather than "on time". */
export function statusLabel(segment: Pick<Segment, 'kind' | 'status'>): string {
  if (segment.status === 'SCHEDULED' && !isTransport(segment)) return 'Confirmed';
  return STATUS_LABELS[segment.status] ?? segment.status.toLowerCase();
}

/** "GMT+1", "CET": the short name of a zone at an instant, in the traveler's locale. */
export function zoneName(instant: string, timeZone: string, locale: string): string {
  try {
    return (
      new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
        .formatToParts(new Date(instant))
        .find((part) => part.type === 'timeZoneName')?.value ?? timeZone
    );
  } catch {
    return timeZone;
  }
}
