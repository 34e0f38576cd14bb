import {
  FLIGHT_BOOKING_HORIZON_DAYS,
  MAX_ITINERARY_LEGS,
  MAX_PASSENGERS,
} from '#shared/api/flight-values.ts';
import type { FlightSearchRequest } from '#shared/api/flights.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import { dateInWords, type ProblemWords } from './problem-words.ts';

/** The last date airlines sell, as YYYY-MM-DD: the date field's max, and what the form checks. */
export const lastBookableDate = (today: string = todayIsoDate()): string =>
  addDays(today, FLIGHT_BOOKING_HORIZON_DAYS);
import type { FlightSearchForm } from './flight-search-params.ts';

/** Problems by the server's field path (itinerary.0.origin, passengers.adults, ...). */
export type FieldErrors = Record<string, string>;

export function validateFlightSearch(
  form: FlightSearchForm,
  today: string,
  { t, locale }: ProblemWords,
): FieldErrors {
  const errors: FieldErrors = {};
  if (form.legs.length > MAX_ITINERARY_LEGS) {
    errors.itinerary = t('flights.problem.tooManyFlights', { count: MAX_ITINERARY_LEGS });
  }
  form.legs.forEach((leg, index) => {
    const path = `itinerary.${index}`;
    // A return flies back the outbound's way: its airports are the outbound's, checked there.
    const mirrored = form.tripType === 'return' && index === 1;
    if (!mirrored) {
      if (!leg.origin) errors[`${path}.origin`] = t('flights.problem.noOrigin');
      if (!leg.destination) errors[`${path}.destination`] = t('flights.problem.noDestination');
      else if (leg.origin && leg.origin.code === leg.destination.code) {
        errors[`${path}.destination`] = t('flights.problem.sameAirport');
      }
    }
    const previous = form.legs[index - 1];
    if (!leg.date) errors[`${path}.date`] = t('flights.problem.noDate');
    else if (leg.date < today) errors[`${path}.date`] = t('flights.problem.pastDate');
    else if (leg.date > lastBookableDate(today)) {
      errors[`${path}.date`] = t('flights.problem.beyondHorizon', {
        days: FLIGHT_BOOKING_HORIZON_DAYS,
        date: dateInWords(lastBookableDate(today), locale),
      });
    } else if (previous?.date && leg.date < previous.date) {
      errors[`${path}.date`] =
        form.tripType === 'return'
          ? t('flights.problem.returnBeforeOutbound')
          : t('flights.problem.outOfOrder');
    }
  });
  if (!Number.isInteger(form.adults) || form.adults < 1) {
    errors['passengers.adults'] = t('flights.problem.noAdult');
  } else if (form.adults > MAX_PASSENGERS) {
    errors['passengers.adults'] = t('flights.problem.tooManyPassengers', { count: MAX_PASSENGERS });
  }
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
