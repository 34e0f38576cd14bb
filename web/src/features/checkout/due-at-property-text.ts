import type { StayFare } from '#shared/api/stays.ts';
import type { LanguageText } from '../../components/text-in-language.tsx';
import type { Translate } from '../../i18n/use-t.ts';
import { TRAVEL_API_LANGUAGE } from '../../lib/travel-api-language.ts';

/**
 * What a hotel collects on site, in the interface's language when the rate says what it is ("Tasa
 * turística por 2 adultos y 2 noches, a pagar en el hotel"); any other charge as the travel API described
 * it, marked as English.
 */
export function dueAtPropertyText(due: NonNullable<StayFare['dueAtProperty']>, t: Translate): LanguageText {
  if (due.kind === 'city_tax' && due.adults !== undefined && due.nights !== undefined) {
    return { text: t('checkout.cityTax', { adults: due.adults, nights: due.nights }) };
  }
  return { text: due.description, lang: TRAVEL_API_LANGUAGE };
}
