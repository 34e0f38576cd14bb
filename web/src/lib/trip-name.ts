import type { TripOverview } from '#shared/api/trips.ts';
import type { LanguageText } from '../components/text-in-language.tsx';
import type { Translate } from '../i18n/use-t.ts';
import { TRAVEL_API_LANGUAGE } from './travel-api-language.ts';
import { tripCities } from './city-name.ts';

/**
 * A trip's name in the interface's language ("London trip", "Viaje a Londres"), from the first city it
 * takes the traveler to, itself in that language where the travel API names it so; a trip that visits no city keeps the travel API's title, marked as English.
 */
export function tripName(
  trip: Pick<TripOverview, 'title' | 'cities' | 'cityNames'>,
  t: Translate,
): LanguageText {
  const city = tripCities(trip)[0];
  return city ? { text: t('trip.name', { city }) } : { text: trip.title, lang: TRAVEL_API_LANGUAGE };
}
