import type { Segment } from '#shared/api/trips.ts';
import type { LanguageText } from '../components/text-in-language.tsx';
import type { Translate } from '../i18n/use-t.ts';
import { TRAVEL_API_LANGUAGE } from './travel-api-language.ts';
import { placeCity } from './city-name.ts';

/**
 * A segment's name in the interface's language: a flight or a train by its route ("Boston → Seattle"), a
 * car by where it is rented ("Rental car in Seattle", "Coche de alquiler en Seattle"), a stay by its
 * hotel's own name; a kind the app does not know keeps the travel API's title, marked as English.
 */
export function segmentName(
  segment: Pick<Segment, 'kind' | 'title' | 'origin' | 'destination'>,
  t: Translate,
): LanguageText {
  switch (segment.kind) {
    case 'flight':
    case 'rail':
      return {
        text: t('segment.route', { from: placeCity(segment.origin), to: placeCity(segment.destination) }),
      };
    case 'car':
      return { text: t('segment.rentalCar', { city: placeCity(segment.destination) }) };
    case 'stay':
      return { text: segment.title };
    default:
      return { text: segment.title, lang: TRAVEL_API_LANGUAGE };
  }
}
