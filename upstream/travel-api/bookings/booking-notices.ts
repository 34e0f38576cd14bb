import type { BookingDetails } from '#shared/upstream/booking-operations.ts';
import type { Money } from '#shared/upstream/flights.ts';
import type { BookingEventType, NotificationBookingFacts } from '#shared/upstream/notifications.ts';
import { dayInWords } from '../notifications/day-in-words.ts';
import type { NotificationDraft } from '../notifications/notification-center.ts';
import type { CityNamesOf } from '../trips/trip-store.ts';

const NO_NAMES: CityNamesOf = () => undefined;

/** The confirmation notification of a stored booking; undefined when it is in no trip. */
export function confirmedNotice(
  travelerId: string,
  booking: BookingDetails,
  cityNamesOf: CityNamesOf = NO_NAMES,
): NotificationDraft | undefined {
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
    facts: { booking: bookingFacts(booking, null, cityNamesOf) },
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
  cityNamesOf: CityNamesOf = NO_NAMES,
): NotificationDraft | undefined {
  const confirmed = confirmedNotice(travelerId, booking, cityNamesOf);
  if (!confirmed) return undefined;
  const refund = replaced.cancellation?.refund;
  return {
    ...confirmed,
    eventType: 'BOOKING_CHANGED' satisfies BookingEventType,
    title: `Booking changed: ${booking.title}`,
    body: `${confirmed.body} It replaces booking ${replaced.reference}, now cancelled. ${
      refund && refund.amount > 0 ? `Refund: ${formatMoney(refund)}.` : 'No refund.'
    }`,
    facts: {
      booking: bookingFacts(booking, null, cityNamesOf),
      replaced: bookingFacts(replaced, refund ?? null, cityNamesOf),
    },
  };
}

/** The cancellation notification, with the refund; undefined when the booking is in no trip. */
export function cancelledNotice(
  travelerId: string,
  booking: BookingDetails,
  cityNamesOf: CityNamesOf = NO_NAMES,
): NotificationDraft | undefined {
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
    facts: { booking: bookingFacts(booking, refund ?? null, cityNamesOf) },
  };
}

/** The booking as values, for clients that write its notification in their traveler's language. */
function bookingFacts(
  booking: BookingDetails,
  refund: Money | null,
  cityNamesOf: CityNamesOf,
): NotificationBookingFacts {
  const legs = booking.flight?.legs ?? [];
  const places = booking.stay
    ? [{ code: null, city: booking.stay.city }]
    : [...legs.map((leg) => leg.origin), ...legs.slice(-1).map((leg) => leg.destination)];
  const cityNames = places.map((place) => ({ ...cityNamesOf(place) }));
  const method = booking.paymentMethod;
  return {
    reference: booking.reference,
    kind: booking.stay ? 'stay' : 'flight',
    cities: places.map((place) => place.city),
    ...(cityNames.some((names) => Object.keys(names).length > 0) ? { cityNames } : {}),
    propertyName: booking.stay?.propertyName ?? null,
    startDate: booking.startDate,
    endDate: booking.endDate,
    totalPrice: booking.totalPrice,
    paymentMethod: method ? { brand: method.brand, last4: method.last4 } : null,
    refund,
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
