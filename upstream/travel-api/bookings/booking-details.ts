import type { BookingDetails, BookingTraveler } from '#shared/upstream/booking-operations.ts';
import type { Booking } from '#shared/upstream/bookings.ts';
import type { Money } from '#shared/upstream/flights.ts';
import { cancellationTerms } from './cancellation-terms.ts';
import type { FlightQuote, StayQuote } from './quote-store.ts';

/** What the service keeps about a booking made through POST /v1/bookings, beyond the bookings row. */
export interface BookedOffer {
  offerId: string;
  traveler: BookingTraveler;
  paymentMethod: { paymentMethodId: string; brand: string; last4: string; label: string };
  quote: FlightQuote | StayQuote;
  segmentIds: string[];
  /** The booking this one was made to replace, when it was. */
  replaces?: string | undefined;
  cancellation: { cancelledAt: string; refund: Money; fee: Money } | null;
}

/**
 * A booking with what was booked, as GET /v1/bookings/:bookingId answers it. A booking not made through
 * POST /v1/bookings (a generated traveler's history) has no offer: its offer, traveler, card, flight, stay
 * and terms are null.
 */
export function bookingDetailsOf(
  booking: Booking,
  offer: BookedOffer | undefined,
  now: Date,
): BookingDetails {
  if (!offer) {
    return {
      ...booking,
      offerId: null,
      traveler: null,
      paymentMethod: null,
      flight: null,
      stay: null,
      cancellationTerms: null,
      cancellation: null,
    };
  }
  const { quote } = offer;
  return {
    ...booking,
    offerId: offer.offerId,
    traveler: offer.traveler,
    paymentMethod: offer.paymentMethod,
    flight:
      quote.kind === 'flight'
        ? {
            legs: quote.offer.legs,
            cabinClass: quote.offer.cabinClass,
            fareConditions: quote.offer.fareConditions,
            baggage: quote.offer.baggage ?? { cabinBags: 1, checkedBags: 0, checkedBagKg: 0 },
          }
        : null,
    stay:
      quote.kind === 'stay'
        ? {
            propertyId: quote.property.propertyId,
            propertyName: quote.property.name,
            address: quote.property.address,
            city: quote.property.city,
            countryCode: quote.property.countryCode,
            timeZone: quote.property.timeZone,
            checkIn: quote.checkIn,
            checkOut: quote.checkOut,
            nights: quote.fare.nights,
            rooms: quote.rooms,
            roomName: quote.fare.roomName,
            bedType: quote.fare.bedType,
            board: quote.fare.board,
            cancellation: quote.fare.cancellation,
            dueAtProperty: quote.fare.dueAtProperty ?? {
              amount: 0,
              currency: quote.fare.currency,
              description: 'Nothing is due at the hotel',
            },
          }
        : null,
    cancellationTerms: booking.status === 'cancelled' ? null : cancellationTerms(booking, quote, now),
    cancellation: offer.cancellation,
  };
}
