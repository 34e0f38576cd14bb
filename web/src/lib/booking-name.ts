import type { LanguageText } from '../components/text-in-language.tsx';
import type { Translate } from '../i18n/use-t.ts';
import { TRAVEL_API_LANGUAGE } from './travel-api-language.ts';

/** What a booking's name is written from: its kind and the travel API's title, with what else is known of it. */
export interface BookingNameFacts {
  /** `flight`, `rail`, `stay`, `car`; the set is open. */
  kind: string;
  title: string;
  /** Where it is (a car's city). */
  city?: string | undefined;
  /** A flight's or train's cities in the order it reaches them, its origin first, when known. */
  cities?: readonly string[] | undefined;
}

/**
 * A booking's name in the interface's language: a car by its city ("Coche de alquiler en Dubái"), a flight
 * or train whose cities are known by its route ("Zurich → London, ida y vuelta" for a return), a stay by its hotel's
 * name; a flight or train otherwise by the travel API's title (its cities), any other kind by that title
 * marked as English.
 */
export function bookingName(booking: BookingNameFacts, t: Translate): LanguageText {
  const { cities = [] } = booking;
  if (booking.kind === 'car' && booking.city) return { text: t('segment.rentalCar', { city: booking.city }) };
  if ((booking.kind === 'flight' || booking.kind === 'rail') && cities.length >= 2) {
    const [from, to, back] = cities;
    if (cities.length === 3 && from !== undefined && to !== undefined && back === from) {
      return { text: t('booking.roundTrip', { from, to }) };
    }
    return { text: cities.join(' → ') };
  }
  if (['flight', 'rail', 'stay'].includes(booking.kind)) return { text: booking.title };
  return { text: booking.title, lang: TRAVEL_API_LANGUAGE };
}
