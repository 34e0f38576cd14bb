import {
  FLIGHT_BOOKING_HORIZON_DAYS,
  MAX_ITINERARY_LEGS,
  MAX_PASSENGERS,
  type FlightSearchRequest,
} from '#shared/api/flights.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';

/** The last date airlines sell, as YYYY-MM-DD: the date field's max, and what the form checks. */
export const lastBookableDate = (today: string = todayIsoDate()): string =>
  addDays(today, FLIGHT_BOOKING_HORIZON_DAYS);
import type { FlightSearchForm } from './flight-search-params.ts';

/** Problems by the server's field path (itinerary.0.origin, passengers.adults, ...). */
export type FieldErrors = Record<string, string>;

/** 3 March 2027: a date as the form's messages write it. */
export const dateInWords = (isoDate: string): string =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });

export function validateFlightSearch(form: FlightSearchForm, today: string = todayIsoDate()): FieldErrors {
  const errors: FieldErrors = {};
  if (form.legs.length > MAX_ITINERARY_LEGS) errors.itinerary = `Add at most ${MAX_ITINERARY_LEGS} flights.`;
  form.legs.forEach((leg, index) => {
    const path = `itinerary.${index}`;
    // A return flies back the outbound's way: its airports are the outbound's, checked there.
    const mirrored = form.tripType === 'return' && index === 1;
    if (!mirrored) {
      if (!leg.origin) errors[`${path}.origin`] = 'Choose where this flight leaves from.';
      if (!leg.destination) errors[`${path}.destination`] = 'Choose where this flight goes.';
      else if (leg.origin && leg.origin.code === leg.destination.code) {
        errors[`${path}.destination`] = 'Choose a destination different from the origin.';
      }
    }
    const previous = form.legs[index - 1];
    if (!leg.date) errors[`${path}.date`] = 'Choose a date.';
    else if (leg.date < today) errors[`${path}.date`] = 'Choose a date that is not in the past.';
    else if (leg.date > lastBookableDate(today)) {
      errors[`${path}.date`] =
        `Airlines sell flights up to ${FLIGHT_BOOKING_HORIZON_DAYS} days ahead: choose a date on or before ${dateInWords(lastBookableDate(today))}.`;
    } else if (previous?.date && leg.date < previous.date) {
      errors[`${path}.date`] =
        form.tripType === 'return'
          ? 'Return on or after the outbound date.'
          : 'Each flight must be on or after the one before.';
    }
  });
  if (!Number.isInteger(form.adults) || form.adults < 1)
    errors['passengers.adults'] = 'At least one adult travels.';
  else if (form.adults > MAX_PASSENGERS)
    errors['passengers.adults'] = `At most ${MAX_PASSENGERS} passengers.`;
  return errors;
}

/** The request body of a valid form, in the traveler's currency. */
export function toFlightSearchRequest(
  form: FlightSearchForm,
  currency: string | undefined,
): FlightSearchRequest {
  return {
    itinerary: form.legs.map((leg) => ({
      origin: leg.origin?.code ?? '',
      destination: leg.destination?.code ?? '',
      date: leg.date,
    })),
    passengers: { adults: form.adults },
    cabinClass: form.cabinClass,
    ...(currency ? { currency: currency as FlightSearchRequest['currency'] } : {}),
  };
}
