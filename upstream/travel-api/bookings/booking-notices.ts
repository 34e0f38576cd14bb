import type { BookingDetails } from '#shared/upstream/booking-operations.ts';
import type { Money } from '#shared/upstream/flights.ts';
import type { BookingEventType } from '#shared/upstream/notifications.ts';
import { dayInWords } from '../notifications/day-in-words.ts';
import type { NotificationDraft } from '../notifications/notification-center.ts';

/** The confirmation notification of a stored booking; undefined when it is in no trip. */
export function confirmedNotice(travelerId: string, booking: BookingDetails): NotificationDraft | undefined {
  if (!booking.tripId || !booking.segmentId) return undefined;
  const method = booking.paymentMethod;
  return {
    travelerId,
    tripId: booking.tripId,
    segmentId: booking.segmentId,
    eventType: 'BOOKING_CONFIRMED' satisfies BookingEventType,
    severity: 'info',
    title: `Booking confirmed: ${booking.title}`,
    body: `Reference ${booking.reference}, ${travelDays(booking)}, ${formatMoney(booking.totalPrice)}${
      method ? ` paid with ${method.label} ending ${method.last4}` : ''
    }.`,
  };
}

/**
 * The one notification of a rebooking, sent when the replaced booking is cancelled: the new booking, what
 * it replaced and the refund.
 */
export function changedNotice(
  travelerId: string,
  booking: BookingDetails,
  replaced: BookingDetails,
): NotificationDraft | undefined {
  const confirmed = confirmedNotice(travelerId, booking);
  if (!confirmed) return undefined;
  const refund = replaced.cancellation?.refund;
  return {
    ...confirmed,
    eventType: 'BOOKING_CHANGED' satisfies BookingEventType,
    title: `Booking changed: ${booking.title}`,
    body: `${confirmed.body} It replaces booking ${replaced.reference}, now cancelled. ${
      refund && refund.amount > 0 ? `Refund: ${formatMoney(refund)}.` : 'No refund.'
    }`,
  };
}

/** The cancellation notification, with the refund; undefined when the booking is in no trip. */
export function cancelledNotice(travelerId: string, booking: BookingDetails): NotificationDraft | undefined {
  if (!booking.tripId || !booking.segmentId) return undefined;
  const refund = booking.cancellation?.refund;
  return {
    travelerId,
    tripId: booking.tripId,
    segmentId: booking.segmentId,
    eventType: 'BOOKING_CANCELLED' satisfies BookingEventType,
    severity: 'info',
    title: `Booking cancelled: ${booking.title}`,
    body: `Reference ${booking.reference}. ${
      refund && refund.amount > 0 ? `Refund: ${formatMoney(refund)}.` : 'No refund.'
    }`,
  };
}

/** An amount as the service's messages write it: the currency code, then the amount in its minor unit. */
export function formatMoney(money: Money): string {
  return `${money.currency} ${money.amount.toFixed(money.currency === 'JPY' ? 0 : 2)}`;
}

/** A booking's days in words: one day, or from its first to its last. */
function travelDays(booking: Pick<BookingDetails, 'startDate' | 'endDate'>): string {
  const start = dayInWords(booking.startDate);
  return booking.endDate === booking.startDate ? start : `${start} to ${dayInWords(booking.endDate)}`;
}
