import type { StayFare, StaySearchProperty } from '#shared/api/stays.ts';
import { cheapestOf, type PropertyPrice } from './stay-search-run.ts';

export const STAY_SORTS = ['distance', 'price', 'rating'] as const;
export type StaySort = (typeof STAY_SORTS)[number];

/** How the traveler arranges the hotels of a search: kept in the URL beside the search. */
export interface StayResultView {
  sort: StaySort;
  /** Highest price per night of a rate to show, in the hotels' currency. */
  maxNightly: number | undefined;
  /** Star ratings to show; empty shows every rating. */
  stars: number[];
  freeCancellation: boolean;
  /** Board types to show; empty shows every board. */
  boards: string[];
}

export const DEFAULT_STAY_VIEW: StayResultView = {
  sort: 'distance',
  maxNightly: undefined,
  stars: [],
  freeCancellation: false,
  boards: [],
};

const VIEW_PARAMS = ['sort', 'maxNightly', 'stars', 'freeCancellation', 'board'] as const;

const listParam = (value: string | null) => (value ? value.split(',').filter(Boolean) : []);

export function stayViewFromParams(params: URLSearchParams): StayResultView {
  const sort = params.get('sort');
  const maxNightly = Number(params.get('maxNightly'));
  return {
    sort: STAY_SORTS.find((known) => known === sort) ?? 'distance',
    maxNightly:
      params.has('maxNightly') && Number.isFinite(maxNightly) && maxNightly > 0 ? maxNightly : undefined,
    stars: listParam(params.get('stars'))
      .map(Number)
      .filter((stars) => Number.isInteger(stars) && stars >= 1 && stars <= 5),
    freeCancellation: params.get('freeCancellation') === '1',
    boards: listParam(params.get('board')),
  };
}

/** The URL of a search with this view: the search's parameters kept, the view's replaced. */
export function writeStayView(params: URLSearchParams, view: StayResultView): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of VIEW_PARAMS) next.delete(name);
  if (view.sort !== 'distance') next.set('sort', view.sort);
  if (view.maxNightly !== undefined) next.set('maxNightly', String(view.maxNightly));
  if (view.stars.length > 0) next.set('stars', [...view.stars].sort().join(','));
  if (view.freeCancellation) next.set('freeCancellation', '1');
  if (view.boards.length > 0) next.set('board', view.boards.join(','));
  return next;
}

/** The search's own parameters, without the view: what decides whether the search runs again. */
export function withoutStayView(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of VIEW_PARAMS) next.delete(name);
  return next;
}

export const filtersActive = (view: StayResultView): number =>
  (view.maxNightly !== undefined ? 1 : 0) +
  (view.stars.length > 0 ? 1 : 0) +
  (view.freeCancellation ? 1 : 0) +
  (view.boards.length > 0 ? 1 : 0);

export interface ShownStay {
  property: StaySearchProperty;
  /** The hotel's pricing as the filters see it: the cheapest rate among those that match. */
  price: PropertyPrice;
}

/** By price: hotels with rates (or still being priced) first, then those whose prices failed, then no rooms. */
function tierOf(price: PropertyPrice): number {
  if (price.state === 'priced' || price.state === 'pricing' || price.state === 'waiting') return 0;
  if (price.state === 'no-rooms') return 2;
  return 1;
}

function nightlyOf(price: PropertyPrice): number {
  return (price.state === 'priced' || price.state === 'pricing') && price.cheapest
    ? price.cheapest.nightlyPrice
    : Number.POSITIVE_INFINITY;
}

/** One object for every hotel not yet priced, so that its card sees the same price from one snapshot to the next. */
const WAITING: PropertyPrice = { state: 'waiting' };

/**
 * The hotels to show, filtered and sorted. A rate filter (price, free cancellation, board) keeps a hotel
 * with at least one rate that passes all of them, shown at the cheapest such rate; a hotel still being
 * priced appears once such a rate arrives.
 *
 * Sorted by distance or rating, a hotel's place is its own (both are known when it is found), so a card
 * never moves while the prices stream in: a hotel whose dates turn out to have no rooms, or whose prices
 * failed, stays where the traveler saw it and says so, rather than jumping to the bottom under their
 * finger. Sorted by price, hotels without a price can only come after those with one: those whose prices
 * failed, then those with no rooms.
 */
export function arrangeStays(
  properties: readonly StaySearchProperty[],
  prices: Readonly<Record<string, PropertyPrice>>,
  view: StayResultView,
): ShownStay[] {
  const rateFilters = view.maxNightly !== undefined || view.freeCancellation || view.boards.length > 0;
  const rateMatches = (fare: StayFare) =>
    (view.maxNightly === undefined || fare.nightlyPrice <= view.maxNightly) &&
    (!view.freeCancellation || fare.cancellation.refundable) &&
    (view.boards.length === 0 || view.boards.includes(fare.board));
  const shown: ShownStay[] = [];
  for (const property of properties) {
    if (view.stars.length > 0 && !view.stars.includes(property.stars)) continue;
    const price = prices[property.searchSolutionId] ?? WAITING;
    if (!rateFilters) {
      shown.push({ property, price });
      continue;
    }
    if (price.state !== 'priced' && price.state !== 'pricing') continue;
    const matching = price.fares.filter(rateMatches);
    const cheapest = cheapestOf(matching);
    if (!cheapest) continue;
    shown.push({ property, price: { ...price, cheapest, fares: matching } });
  }
  const byDistance = (left: ShownStay, right: ShownStay) =>
    left.property.distanceKm - right.property.distanceKm;
  const within: Record<StaySort, (left: ShownStay, right: ShownStay) => number> = {
    distance: byDistance,
    price: (left, right) => nightlyOf(left.price) - nightlyOf(right.price) || byDistance(left, right),
    rating: (left, right) =>
      right.property.reviewScore - left.property.reviewScore || byDistance(left, right),
  };
  if (view.sort !== 'price') return shown.sort(within[view.sort]);
  return shown.sort((left, right) => tierOf(left.price) - tierOf(right.price) || within.price(left, right));
}

/** The board types among the rates found so far, for the board filter. */
export function boardsOf(prices: Readonly<Record<string, PropertyPrice>>): string[] {
  const boards = new Set<string>();
  for (const price of Object.values(prices))
    if (price.state === 'priced' || price.state === 'pricing')
      for (const fare of price.fares) boards.add(fare.board);
  return [...boards].sort();
}

/** The currency of the rates found so far (a city's hotels price in one), for the price filter's label. */
export function currencyOf(prices: Readonly<Record<string, PropertyPrice>>): string | undefined {
  for (const price of Object.values(prices))
    if ((price.state === 'priced' || price.state === 'pricing') && price.cheapest)
      return price.cheapest.currency;
  return undefined;
}
