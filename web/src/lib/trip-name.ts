import type { TripOverview } from '#shared/api/trips.ts';
import type { LanguageText } from '../components/text-in-language.tsx';
import type { Translate } from '../i18n/use-t.ts';
import { TRAVEL_API_LANGUAGE } from './travel-api-language.ts';

/**
 * A trip's name in the interface's language ("Seattle trip", "Viaje a Seattle"), from the first city it
 * takes the traveler to; a trip that visits no city keeps the travel API's title, marked as English.
 */
export function tripName(trip: Pick<TripOverview, 'title' | 'cities'>, t: Translate): LanguageText {
  const city = trip.cities[0];
  return city ? { text: t('trip.name', { city }) } : { text: trip.title, lang: TRAVEL_API_LANGUAGE };
}
