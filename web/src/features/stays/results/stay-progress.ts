import type { Translate } from '../../../i18n/use-t.ts';
import type { StaySearchSnapshot } from './stay-search-run.ts';

/**
 * How far pricing got: hotels answered (with rates or with no rooms) of those found, and how many have no
 * price because their fares failed; nothing when the search found no hotel (an error says why).
 */
export function progressText(snapshot: StaySearchSnapshot, expected: number, t: Translate): string {
  if (expected === 0) return snapshot.phase === 'searching' ? t('stays.progress.searching') : '';
  // A stopped search has nothing more to count: its notice says why.
  if (snapshot.phase === 'max-nights' || snapshot.phase === 'offer-expired' || snapshot.phase === 'failed')
    return '';
  const unavailable = Object.values(snapshot.prices).filter((price) => price.state === 'failed').length;
  const priced = snapshot.pricedCount - unavailable;
  return unavailable > 0
    ? t('stays.progress.pricedSomeUnavailable', { priced, expected, unavailable })
    : t('stays.progress.priced', { priced, expected });
}
