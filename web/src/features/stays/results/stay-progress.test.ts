import { describe, expect, it } from 'vitest';
import { INITIAL_SNAPSHOT, type StaySearchSnapshot } from './stay-search-run.ts';
import { i18n, type MessageId } from '../../../i18n/i18n.ts';
import { progressText } from './stay-progress.ts';

const english = (id: MessageId, values?: Record<string, unknown>) => i18n._(id, values);

const snapshot = (change: Partial<StaySearchSnapshot>): StaySearchSnapshot => ({
  ...INITIAL_SNAPSHOT,
  ...change,
});

describe('progressText', () => {
  it('says nothing beside an error when the search found no hotel (never "Priced 0 of 0")', () => {
    expect(progressText(snapshot({ phase: 'failed' }), 0, english)).toBe('');
    expect(progressText(snapshot({ phase: 'searching' }), 0, english)).toBe('Searching…');
  });

  it('never counts a hotel whose prices failed as priced', () => {
    const prices = {
      a: { state: 'priced' as const, cheapest: {} as never, fareCount: 2, fares: [] },
      b: { state: 'failed' as const, error: null },
      c: { state: 'no-rooms' as const },
    };
    expect(progressText(snapshot({ phase: 'complete', prices, pricedCount: 3 }), 3, english)).toBe(
      'Priced 2 of 3 · 1 unavailable',
    );
    expect(
      progressText(snapshot({ phase: 'pricing', prices: { a: prices.a }, pricedCount: 1 }), 3, english),
    ).toBe('Priced 1 of 3');
  });

  it('counts nothing once the search stopped (prices changed, stay too long): its notice says why', () => {
    const prices = { a: { state: 'stopped' as const } };
    expect(progressText(snapshot({ phase: 'offer-expired', prices }), 1, english)).toBe('');
    expect(progressText(snapshot({ phase: 'max-nights', prices }), 1, english)).toBe('');
  });
});
