import {
  PRICED_STAY_SEARCH_EVENTS as EVENTS,
  PricedStaySearchFareSchema,
  PricedStaySearchProgressSchema,
  PricedStaySearchPropertyEndSchema,
  PricedStaySearchPropertySchema,
  PricedStaySearchSearchEndSchema,
} from '#shared/api/priced-stay-search.ts';
import type { StayFare, StaySearchProperty } from '#shared/api/stays.ts';
import { BffError } from '../../../lib/bff-error.ts';
import { readEventStream } from '../../../lib/event-stream.ts';
import { safeJson } from '../../../lib/safe-json.ts';
import type { StaySearch } from '../search/stay-search-params.ts';
import type { StayCurrency } from '../stay-currency.ts';
import { streamStayFares } from '../stream-stay-fares.ts';

/** A property's pricing: its rates so far (`fares`) and the cheapest of them. */
export type PropertyPrice =
  | { state: 'waiting' }
  | { state: 'pricing'; cheapest: StayFare | null; fares: readonly StayFare[] }
  | { state: 'priced'; cheapest: StayFare; fareCount: number; fares: readonly StayFare[] }
  | { state: 'no-rooms' }
  | { state: 'failed'; error: BffError | null }
  /** The search stopped (prices changed, the stay is too long) before this property was priced. */
  | { state: 'stopped' };

export interface StaySearchSnapshot {
  /** searching: the search stream is open; pricing: all properties in, fares still coming. */
  phase: 'searching' | 'pricing' | 'complete' | 'failed' | 'max-nights' | 'offer-expired';
  properties: StaySearchProperty[];
  expected: number | null;
  prices: Readonly<Record<string, PropertyPrice>>;
  /** Properties whose fares stream has ended, however it ended. */
  pricedCount: number;
  /** The search stream ended without `done`: the list may be incomplete. */
  truncated: boolean;
  error: BffError | null;
}

const STOPPING_PHASES: Readonly<Record<string, StaySearchSnapshot['phase']>> = {
  MAX_NIGHTS_EXCEEDED: 'max-nights',
  OFFER_EXPIRED: 'offer-expired',
};

export const INITIAL_SNAPSHOT: StaySearchSnapshot = {
  phase: 'searching',
  properties: [],
  expected: null,
  prices: {},
  pricedCount: 0,
  truncated: false,
  error: null,
};

/** The cheapest of some rates (by total price). */
export const cheapestOf = (fares: readonly StayFare[]): StayFare | null =>
  fares.reduce<StayFare | null>(
    (cheapest, fare) => (!cheapest || fare.totalPrice < cheapest.totalPrice ? fare : cheapest),
    null,
  );

export interface StaySearchRun {
  /** Closes the stream and every retry; the BFF aborts every upstream call of the search with it. */
  stop: () => void;
  /** Prices again one property whose pricing failed (POST /api/stays/fares, search-stream path). */
  retry: (searchSolutionId: string) => void;
}

/**
 * Runs one stay search over one stream (POST /api/stays/priced-search): the BFF sends each property as
 * the search finds it, then each property's fares and ending as its pricing goes. Every change is
 * published as a new snapshot. The run never repeats itself; only the traveler (or a card whose wait is
 * over) prices a failed property again.
 */
export function startStaySearchRun(
  search: StaySearch,
  publish: (snapshot: StaySearchSnapshot) => void,
  currency?: StayCurrency,
): StaySearchRun {
  const inCurrency = currency ? { currency } : {};
  const controller = new AbortController();
  let snapshot = INITIAL_SNAPSHOT;
  let requestId: string | undefined;

  const update = (change: Partial<StaySearchSnapshot>) => {
    snapshot = { ...snapshot, ...change };
    publish(snapshot);
  };
  const setPrice = (searchSolutionId: string, price: PropertyPrice, finished = false) => {
    update({
      prices: { ...snapshot.prices, [searchSolutionId]: price },
      pricedCount: snapshot.pricedCount + (finished ? 1 : 0),
    });
  };
  const faresSoFar = (searchSolutionId: string): readonly StayFare[] => {
    const current = snapshot.prices[searchSolutionId];
    return current?.state === 'pricing' ? current.fares : [];
  };
  const addFare = (searchSolutionId: string, fare: StayFare) => {
    const fares = [...faresSoFar(searchSolutionId), fare];
    setPrice(searchSolutionId, { state: 'pricing', cheapest: cheapestOf(fares), fares });
  };
  const endPricing = (searchSolutionId: string, ending: 'done' | BffError | null) => {
    const fares = faresSoFar(searchSolutionId);
    const cheapest = cheapestOf(fares);
    if (ending === 'done' && cheapest)
      setPrice(searchSolutionId, { state: 'priced', cheapest, fareCount: fares.length, fares }, true);
    else if (ending === 'done') setPrice(searchSolutionId, { state: 'no-rooms' }, true);
    else setPrice(searchSolutionId, { state: 'failed', error: ending }, true);
  };
  /** The search is void: whatever was not priced yet never will be. */
  const stopWith = (error: BffError) => {
    const prices = { ...snapshot.prices };
    for (const [id, price] of Object.entries(prices))
      if (price.state === 'pricing' || price.state === 'waiting') prices[id] = { state: 'stopped' };
    update({ phase: STOPPING_PHASES[error.code] ?? 'failed', error, prices });
    controller.abort();
  };

  const onProperty = (data: unknown) => {
    const parsed = PricedStaySearchPropertySchema.safeParse(data);
    if (!parsed.success) return;
    const property = parsed.data;
    if (snapshot.properties.some((known) => known.searchSolutionId === property.searchSolutionId)) return;
    update({
      properties: [...snapshot.properties, property],
      prices: {
        ...snapshot.prices,
        [property.searchSolutionId]: { state: 'pricing', cheapest: null, fares: [] },
      },
    });
  };
  const onFare = (data: unknown) => {
    const parsed = PricedStaySearchFareSchema.safeParse(data);
    if (!parsed.success) return;
    addFare(parsed.data.searchSolutionId, parsed.data.fare);
  };
  const onPropertyEnd = (data: unknown) => {
    const parsed = PricedStaySearchPropertyEndSchema.safeParse(data);
    if (!parsed.success) return;
    const ending = parsed.data;
    if (ending.outcome === 'failed')
      endPricing(ending.searchSolutionId, new BffError({ status: 200, body: ending.error.error, requestId }));
    // Rates that arrived but could not be read are not "no rooms": say the answer was unexpected.
    else if (ending.outcome === 'priced' && faresSoFar(ending.searchSolutionId).length === 0)
      endPricing(ending.searchSolutionId, null);
    else endPricing(ending.searchSolutionId, 'done');
  };

  const retry = (searchSolutionId: string) => {
    const property = snapshot.properties.find((known) => known.searchSolutionId === searchSolutionId);
    const current = snapshot.prices[searchSolutionId];
    if (!property || current?.state !== 'failed' || controller.signal.aborted) return;
    update({
      prices: { ...snapshot.prices, [searchSolutionId]: { state: 'pricing', cheapest: null, fares: [] } },
      pricedCount: snapshot.pricedCount - 1,
    });
    void streamStayFares(
      {
        searchSolutionId,
        propertyId: property.propertyId,
        solutionKey: property.solutionKey,
        checkIn: search.checkIn,
        checkOut: search.checkOut,
        rooms: search.rooms,
        bookingProfile: search.bookingProfile,
        ...inCurrency,
      },
      { signal: controller.signal, onFare: (fare) => addFare(searchSolutionId, fare) },
    ).then((end) => {
      if (end.kind === 'aborted') return;
      if (end.kind === 'error' && STOPPING_PHASES[end.error.code]) stopWith(end.error);
      else
        endPricing(searchSolutionId, end.kind === 'done' ? 'done' : end.kind === 'error' ? end.error : null);
    });
  };

  const run = async () => {
    publish(snapshot);
    const end = await readEventStream('/api/stays/priced-search', {
      method: 'POST',
      body: {
        destination: search.destination,
        checkIn: search.checkIn,
        checkOut: search.checkOut,
        rooms: search.rooms,
        bookingProfile: search.bookingProfile,
        ...inCurrency,
      },
      signal: controller.signal,
      onEvent: (message) => {
        const data = safeJson(message.data);
        if (message.event === EVENTS.property) onProperty(data);
        else if (message.event === EVENTS.fare) onFare(data);
        else if (message.event === EVENTS.propertyEnd) onPropertyEnd(data);
        else if (message.event === EVENTS.progress) {
          const parsed = PricedStaySearchProgressSchema.safeParse(data);
          if (parsed.success) update({ expected: parsed.data.expected });
        } else if (message.event === EVENTS.searchEnd) {
          const parsed = PricedStaySearchSearchEndSchema.safeParse(data);
          update({
            phase: 'pricing',
            expected: snapshot.properties.length,
            truncated: parsed.success && parsed.data.outcome === 'truncated',
          });
        }
      },
      onOpen: (id) => {
        requestId = id;
      },
    });
    if (end.kind === 'aborted') return;
    if (end.kind === 'error') {
      stopWith(end.error);
      return;
    }
    // Whatever the stream left unpriced (it was cut short) has no price: say so on its card.
    const unpriced = snapshot.properties.filter(
      (property) => snapshot.prices[property.searchSolutionId]?.state === 'pricing',
    );
    for (const property of unpriced) endPricing(property.searchSolutionId, null);
    update({
      phase: 'complete',
      expected: snapshot.properties.length,
      truncated: snapshot.truncated || end.kind === 'truncated',
    });
  };
  void run();

  return { stop: () => controller.abort(), retry };
}
