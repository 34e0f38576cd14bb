import type { StaySearchSnapshot } from './stay-search-run.ts';

/**
 * How far pricing got: hotels answered (with rates or with no rooms) of those found, and how many have no
 * price because their fares failed; nothing when the search found no hotel (an error says why).
 */
export function progressText(snapshot: StaySearchSnapshot, expected: number): string {
  if (expected === 0) return snapshot.phase === 'searching' ? 'Searching…' : '';
  // A stopped search has nothing more to count: its notice says why.
  if (snapshot.phase === 'max-nights' || snapshot.phase === 'offer-expired' || snapshot.phase === 'failed')
    return '';
  const unavailable = Object.values(snapshot.prices).filter((price) => price.state === 'failed').length;
  const priced = `Priced ${snapshot.pricedCount - unavailable} of ${expected}`;
  return unavailable > 0 ? `${priced} · ${unavailable} unavailable` : priced;
}
