import type { Notification, NotificationBookingFacts } from '#shared/api/notifications.ts';
import type { Segment } from '#shared/api/trips.ts';
import type { Translate } from '../../i18n/use-t.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { bookingName, type BookingNameFacts } from '../../lib/booking-name.ts';
import { segmentName } from '../../lib/segment-name.ts';
import { placeCity } from '../../lib/city-name.ts';
import { TRAVEL_API_LANGUAGE } from '../../lib/travel-api-language.ts';

/** A notification's title and body, and their language when it is not the interface's. */
export interface NotificationText {
  title: string;
  body: string;
  lang?: string | undefined;
}

/** What a notification's text is written from: its kind and facts, and the travel API's words. */
export type NotificationTextFacts = Pick<Notification, 'eventType' | 'facts' | 'title' | 'body'>;

/**
 * A notification in the interface's language, composed from the event's facts (its kind, the segment as
 * the event left it, the booking): "CL 2568 se retrasa 6 h 20 min", times on the interface's own clock.
 * A notification without the facts its kind needs, or of a kind the app does not know, is shown as the
 * travel API wrote it, in English, and marked so.
 */
export function notificationText(
  notification: NotificationTextFacts,
  format: Formatters,
  t: Translate,
): NotificationText {
  return (
    composed(notification, format, t) ?? {
      title: notification.title,
      body: notification.body,
      lang: TRAVEL_API_LANGUAGE,
    }
  );
}

function composed(
  notification: NotificationTextFacts,
  format: Formatters,
  t: Translate,
): NotificationText | undefined {
  const facts = notification.facts;
  const segment = facts?.segment;
  const previous = facts?.previous;
  const booking = facts?.booking;
  switch (notification.eventType) {
    case 'SEGMENT_DELAYED':
      return segment && previous && delayed(segment, previous.delayMinutes, format, t);
    case 'SEGMENT_CANCELLED':
      return (
        segment && {
          title: t('notices.text.cancelled.title', { label: label(segment, t) }),
          body: t('notices.text.cancelled.body', {
            route: route(segment, t),
            day: format.calendarDate(segment.scheduledDeparture.slice(0, 10)),
          }),
        }
      );
    case 'GATE_CHANGED':
      return segment && previous && gateChanged(segment, previous.gate, t);
    case 'CHECK_IN_OPEN':
      return (
        segment && {
          title: t('notices.text.checkIn.title', { label: label(segment, t) }),
          body: t('notices.text.checkIn.body', {
            route: route(segment, t),
            day: format.calendarDate(segment.estimatedDeparture.slice(0, 10)),
            time: wallTime(segment.estimatedDeparture, format),
          }),
        }
      );
    case 'BOOKING_CONFIRMED':
      return booking && bookingConfirmed(booking, format, t);
    case 'BOOKING_CANCELLED':
      return booking && bookingCancelled(booking, format, t);
    case 'BOOKING_CHANGED':
      return booking && facts.replaced && bookingChanged(booking, facts.replaced, format, t);
    default:
      return undefined;
  }
}

function delayed(segment: Segment, before: number, format: Formatters, t: Translate): NotificationText {
  const scheduled = segment.scheduledDeparture;
  const departure = segment.estimatedDeparture;
  // A delay into another day names the new day, so the new time never reads as an earlier one.
  const otherDay = departure.slice(0, 10) !== scheduled.slice(0, 10);
  const body = t('notices.text.delayed.body', {
    route: route(segment, t),
    departure: otherDay ? format.wallDateTime(departure) : wallTime(departure, format),
    scheduled: otherDay ? format.wallDateTime(scheduled) : wallTime(scheduled, format),
    arrival: wallTime(segment.estimatedArrival, format),
  });
  const added = segment.delayMinutes - before;
  return {
    title: t('notices.text.delayed.title', {
      label: label(segment, t),
      duration: format.duration(segment.delayMinutes),
    }),
    body:
      before > 0 && added > 0
        ? `${body} ${t('notices.text.delayed.more', { duration: format.duration(added) })}`
        : body,
  };
}

function gateChanged(segment: Segment, before: string | null, t: Translate): NotificationText {
  const gate = segment.gate ?? t('notices.text.gate.toBeAnnounced');
  const values = { route: route(segment, t), gate, previous: before ?? '' };
  const body = before ? t('notices.text.gate.bodyWas', values) : t('notices.text.gate.body', values);
  return {
    title: t('notices.text.gate.title', { label: label(segment, t), gate }),
    body: segment.terminal
      ? `${body} ${t('notices.text.gate.terminal', { terminal: segment.terminal })}`
      : body,
  };
}

function bookingConfirmed(
  booking: NotificationBookingFacts,
  format: Formatters,
  t: Translate,
): NotificationText {
  const method = booking.paymentMethod;
  const values = {
    reference: booking.reference,
    days: bookingDays(booking, format, t),
    price: format.money(booking.totalPrice.amount, booking.totalPrice.currency),
    brand: method?.brand ?? '',
    last4: method?.last4 ?? '',
  };
  return {
    title: t('notices.text.bookingConfirmed.title', { name: bookingName(nameFacts(booking), t).text }),
    body: method
      ? t('notices.text.bookingConfirmed.bodyPaid', values)
      : t('notices.text.bookingConfirmed.body', values),
  };
}

/** The new booking of a rebooking as its confirmation says it, then what it replaced and the refund. */
function bookingChanged(
  booking: NotificationBookingFacts,
  replaced: NotificationBookingFacts,
  format: Formatters,
  t: Translate,
): NotificationText {
  const refund = replaced.refund;
  const values = { reference: replaced.reference };
  const cancelled =
    refund && refund.amount > 0
      ? t('notices.text.bookingChanged.refund', {
          ...values,
          refund: format.money(refund.amount, refund.currency),
        })
      : t('notices.text.bookingChanged.noRefund', values);
  return {
    title: t('notices.text.bookingChanged.title', { name: bookingName(nameFacts(booking), t).text }),
    body: `${bookingConfirmed(booking, format, t).body} ${cancelled}`,
  };
}

function bookingCancelled(
  booking: NotificationBookingFacts,
  format: Formatters,
  t: Translate,
): NotificationText {
  const refund = booking.refund;
  return {
    title: t('notices.text.bookingCancelled.title', { name: bookingName(nameFacts(booking), t).text }),
    body:
      refund && refund.amount > 0
        ? t('notices.text.bookingCancelled.refund', {
            reference: booking.reference,
            refund: format.money(refund.amount, refund.currency),
          })
        : t('notices.text.bookingCancelled.noRefund', { reference: booking.reference }),
  };
}

/** A flight by its number, anything else by its name. */
function label(segment: Segment, t: Translate): string {
  return segment.serviceNumber ?? segmentName(segment, t).text;
}

function route(segment: Segment, t: Translate): string {
  return t('segment.route', { from: placeCity(segment.origin), to: placeCity(segment.destination) });
}

/** What a booking notification's booking is named from. */
function nameFacts(booking: NotificationBookingFacts): BookingNameFacts {
  const cities = booking.cities.map((city, index) =>
    placeCity({ city, cityNames: booking.cityNames?.[index] }),
  );
  return {
    kind: booking.kind,
    title: booking.propertyName ?? '',
    city: cities[0],
    cities,
  };
}

function bookingDays(booking: NotificationBookingFacts, format: Formatters, t: Translate): string {
  const start = format.calendarDate(booking.startDate);
  return booking.endDate === booking.startDate
    ? start
    : t('notices.text.days', { start, end: format.calendarDate(booking.endDate) });
}

/** The wall-clock time of a local ISO time (the place's own clock), on the interface's 12 or 24 hour clock. */
function wallTime(localIso: string, format: Formatters): string {
  return format.time(`${localIso.slice(0, 16)}:00Z`, 'UTC');
}
