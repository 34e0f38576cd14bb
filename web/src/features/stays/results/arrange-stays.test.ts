import { describe, expect, it } from 'vitest';
import type { StayFare, StaySearchProperty } from '#shared/api/stays.ts';
import {
  arrangeStays,
  DEFAULT_STAY_VIEW,
  stayViewFromParams,
  withoutStayView,
  writeStayView,
  type StayResultView,
} from './arrange-stays.ts';
import type { PropertyPrice } from './stay-search-run.ts';

const hotel = (id: string, stars: number, distanceKm: number, reviewScore: number) =>
  ({ searchSolutionId: id, name: id, stars, distanceKm, reviewScore }) as StaySearchProperty;
const rate = (nightlyPrice: number, board = 'ROOM_ONLY', refundable = false) =>
  ({ nightlyPrice, totalPrice: nightlyPrice * 2, board, cancellation: { refundable } }) as StayFare;
const priced = (...fares: StayFare[]): PropertyPrice => ({
  state: 'priced',
  cheapest: [...fares].sort((a, b) => a.totalPrice - b.totalPrice)[0] as StayFare,
  fareCount: fares.length,
  fares,
});

const hotels = [
  hotel('near', 3, 0.5, 7.1),
  hotel('mid', 4, 1.5, 9.0),
  hotel('far', 5, 3, 8.2),
  hotel('full', 4, 0.2, 9.9),
];
const prices: Record<string, PropertyPrice> = {
  near: priced(rate(180), rate(210, 'BREAKFAST', true)),
  mid: priced(rate(90, 'BREAKFAST')),
  far: { state: 'failed', error: null },
  full: { state: 'no-rooms' },
};
const names = (view: Partial<StayResultView>) =>
  arrangeStays(hotels, prices, { ...DEFAULT_STAY_VIEW, ...view }).map(({ property }) => property.name);

describe('arrangeStays', () => {
  it('sorts by distance, price or rating; by price, hotels without a price come last', () => {
    expect(names({ sort: 'price' })).toEqual(['mid', 'near', 'far', 'full']);
  });

  it('keeps a hotel in its place by distance or rating whatever its prices turn out to be', () => {
    // A card does not jump while the prices stream in: the hotel with no rooms is the nearest and the
    // best rated, and the one whose prices failed keeps its distance and rating too.
    expect(names({ sort: 'distance' })).toEqual(['full', 'near', 'mid', 'far']);
    expect(names({ sort: 'rating' })).toEqual(['full', 'mid', 'far', 'near']);
    const waiting = Object.fromEntries(
      hotels.map(({ searchSolutionId }) => [searchSolutionId, { state: 'waiting' as const }]),
    );
    for (const sort of ['distance', 'rating'] as const)
      expect(
        arrangeStays(hotels, waiting, { ...DEFAULT_STAY_VIEW, sort }).map(({ property }) => property.name),
      ).toEqual(names({ sort }));
  });

  it('keeps a hotel with one rate that passes every rate filter, shown at the cheapest such rate', () => {
    const shown = arrangeStays(hotels, prices, { ...DEFAULT_STAY_VIEW, freeCancellation: true });
    expect(shown.map(({ property }) => property.name)).toEqual(['near']);
    expect(shown[0]?.price).toMatchObject({ state: 'priced', cheapest: { nightlyPrice: 210 } });
    expect(names({ boards: ['BREAKFAST'], maxNightly: 150 })).toEqual(['mid']);
    expect(names({ maxNightly: 50 })).toEqual([]);
  });

  it('filters by stars', () => {
    expect(names({ stars: [4, 5] })).toEqual(['full', 'mid', 'far']);
  });
});

describe('the view in the URL', () => {
  it('round-trips beside the search parameters, which stay the search', () => {
    const search = new URLSearchParams('city=paris-fr&checkIn=2027-01-10');
    const view: StayResultView = {
      sort: 'price',
      maxNightly: 150,
      stars: [5, 4],
      freeCancellation: true,
      boards: ['BREAKFAST'],
    };
    const params = writeStayView(search, view);
    expect(stayViewFromParams(params)).toEqual({ ...view, stars: [4, 5] });
    expect(withoutStayView(params).toString()).toBe(search.toString());
    expect(stayViewFromParams(new URLSearchParams('sort=nonsense&maxNightly=-3&stars=9'))).toEqual(
      DEFAULT_STAY_VIEW,
    );
  });
});
