import type { BookingConflictReason } from '#shared/upstream/booking-operations.ts';
import type { SegmentDetails } from '#shared/upstream/trips.ts';
import { ServiceError } from '../service-error.ts';
import type { PlannedSegment } from './booking-plans.ts';

/**
 * The refusal of a booking that clashes with the traveler's live segments: the same flight twice, or a
 * stay overlapping another. Undefined when nothing clashes; segments of the booking itself (`reference`)
 * and cancelled ones never do.
 */
export function bookingConflict(
  segments: readonly SegmentDetails[],
  planned: readonly PlannedSegment[],
  reference: string,
): ServiceError | undefined {
  const existing = segments.filter(
    (segment) => segment.status !== 'CANCELLED' && segment.bookingReference !== reference,
  );
  for (const segment of planned) {
    const start = segment.scheduledDeparture.getTime();
    const end = segment.scheduledArrival.getTime();
    const clash = existing.find((other) =>
      segment.kind === 'flight'
        ? other.kind === 'flight' &&
          other.serviceNumber === segment.serviceNumber &&
          Date.parse(other.scheduledDeparture) === start
        : other.kind === 'stay' &&
          Date.parse(other.scheduledDeparture) < end &&
          Date.parse(other.scheduledArrival) > start,
    );
    if (!clash) continue;
    const message =
      segment.kind === 'flight'
        ? `You already have flight ${clash.serviceNumber} on ${clash.scheduledDeparture.slice(0, 10)} (booking ${clash.bookingReference})`
        : `Your stay at ${clash.title} (booking ${clash.bookingReference}) overlaps these dates, ${clash.scheduledDeparture.slice(0, 10)} to ${clash.scheduledArrival.slice(0, 10)}`;
    const reason: BookingConflictReason =
      segment.kind === 'flight'
        ? {
            code: 'same_flight',
            reference: clash.bookingReference,
            ...(clash.serviceNumber ? { flightNumber: clash.serviceNumber } : {}),
            date: clash.scheduledDeparture.slice(0, 10),
          }
        : {
            code: 'overlapping_stay',
            reference: clash.bookingReference,
            hotel: clash.title,
            checkIn: clash.scheduledDeparture.slice(0, 10),
            checkOut: clash.scheduledArrival.slice(0, 10),
          };
    return new ServiceError('BOOKING_CONFLICT', { message, reason });
  }
  return undefined;
}
