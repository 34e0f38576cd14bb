import type { CabinClass } from '#shared/api/flights.ts';
import type { MessageId } from '../../i18n/i18n.ts';
import type { Translate } from '../../i18n/use-t.ts';

const CABIN_LABELS: Record<CabinClass, MessageId> = {
  economy: 'flights.cabin.economy',
  premium_economy: 'flights.cabin.premium_economy',
  business: 'flights.cabin.business',
  first: 'flights.cabin.first',
};

/** "Economy", "Turista": a cabin's name in the active language (its code when the app does not know it). */
export function cabinName(cabin: string, t: Translate): string {
  return cabin in CABIN_LABELS ? t(CABIN_LABELS[cabin as CabinClass]) : cabin;
}
