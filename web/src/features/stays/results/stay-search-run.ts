import type {
  PricedStaySearchFare,
  PricedStaySearchProgress,
  PricedStaySearchPropertyEnd,
  PricedStaySearchSearchEnd,
} from '#shared/api/priced-stay-search.ts';
import { PRICED_STAY_SEARCH_EVENTS as EVENTS } from '#shared/api/priced-stay-search-names.ts';
import type { StayFare, StaySearchProperty } from '#shared/api/stays.ts';
import { BffError, networkError } from '../../../lib/bff-error.ts';
import { readResumableEventStream, type StreamEnd } from '../../../lib/event-stream.ts';
import { safeJson } from '../../../lib/safe-json.ts';
import type { StaySearch } from '../search/stay-search-params.ts';
import type { StayCurrency } from '../stay-currency.ts';
import { faresWhileResuming } from '../fares-while-resuming.ts';

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
 * published as a new snapshot. Only the traveler (or a card whose wait is over) prices a failed property
 * again; only a stream whose connection was cut (the instance serving it died) is opened again by itself
 * (readResumableEventStream). The search then runs again from the start, on whichever instance answers:
 * a hotel already shown keeps its card (matched by propertyId, as the new search names its solutions
 * anew) and its prices, one whose pricing the cut left unfinished is priced by the new stream, and the
 * hotels the first stream had not reached are added.
 */
export function startStaySearchRun(
  search: StaySearch,
  publish: (snapshot: StaySearchSnapshot) => void,
  currency?: StayCurrency,
): StaySearchRun {
  // What the search and each fares call say alike: the dates, rooms, purpose and currency.
  const stay = {
    checkIn: search.checkIn,
    checkOut: search.checkOut,
    rooms: search.rooms,
    bookingProfile: search.bookingProfile,
    ...(currency ? { currency } : {}),
  };
  const controller = new AbortController();
  let snapshot = INITIAL_SNAPSHOT;
  let requestId: string | undefined;
  /** The rates the open stream sent for each property it prices, by the card's searchSolutionId. */
  const fresh = new Map<string, StayFare[]>();
  /** The rates shown before a cut, of the properties a resumed stream prices again. */
  const carried = new Map<string, readonly StayFare[]>();
  /** Properties priced by the traveler's retry, not by the stream. */
  const retrying = new Set<string>();
  /** The open stream's properties still pricing, by its searchSolutionId: the card each one prices. */
  let streamed = new Map<string, string>();
  /** The cards the open stream has named (priced again or not). */
  let claimed = new Set<string>();

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
  const showPricing = (searchSolutionId: string, fares: readonly StayFare[]) =>
    setPrice(searchSolutionId, { state: 'pricing', cheapest: cheapestOf(fares), fares });
  const addFare = (searchSolutionId: string, fare: StayFare) => {
    const fares = [...(fresh.get(searchSolutionId) ?? []), fare];
    fresh.set(searchSolutionId, fares);
    showPricing(searchSolutionId, faresWhileResuming(fares, carried.get(searchSolutionId) ?? []));
  };
  /** Ends a property's pricing with `fares`, the whole answer of the stream that priced it. */
  const endPricing = (
    searchSolutionId: string,
    ending: 'done' | BffError | null,
    fares: readonly StayFare[] = fresh.get(searchSolutionId) ?? [],
  ) => {
    fresh.delete(searchSolutionId);
    carried.delete(searchSolutionId);
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

  // Each event's data is of its contract's type: the BFF checked every event before sending it
  // (bff/streams/run-priced-stay-search.ts), as it checks every answer the SPA reads (api-client.ts).
  // Data that is not JSON at all (undefined) is passed over.
  const onProperty = (property: StaySearchProperty | undefined) => {
    if (!property) return;
    const { searchSolutionId } = property;
    if (streamed.has(searchSolutionId)) return;
    const known =
      snapshot.properties.find((shown) => shown.searchSolutionId === searchSolutionId) ??
      snapshot.properties.find(
        (shown) => shown.propertyId === property.propertyId && !claimed.has(shown.searchSolutionId),
      );
    if (!known) {
      streamed.set(searchSolutionId, searchSolutionId);
      claimed.add(searchSolutionId);
      fresh.set(searchSolutionId, []);
      update({
        properties: [...snapshot.properties, property],
        prices: { ...snapshot.prices, [searchSolutionId]: { state: 'pricing', cheapest: null, fares: [] } },
      });
      return;
    }
    if (claimed.has(known.searchSolutionId)) return;
    claimed.add(known.searchSolutionId);
    // Shown before a cut: it keeps its card, and this stream prices it only if its pricing was cut too.
    if (carried.has(known.searchSolutionId)) streamed.set(searchSolutionId, known.searchSolutionId);
  };
  const onFare = (priced: PricedStaySearchFare | undefined) => {
    const card = priced ? streamed.get(priced.searchSolutionId) : undefined;
    if (priced && card) addFare(card, priced.fare);
  };
  const onPropertyEnd = (ending: PricedStaySearchPropertyEnd | undefined) => {
    if (!ending) return;
    const card = streamed.get(ending.searchSolutionId);
    if (!card) return;
    streamed.delete(ending.searchSolutionId);
    if (ending.outcome === 'failed')
      endPricing(card, new BffError({ status: 200, body: ending.error.error, requestId }));
    // Rates that arrived but could not be read are not "no rooms": say the answer was unexpected.
    else if (ending.outcome === 'priced' && (fresh.get(card) ?? []).length === 0) endPricing(card, null);
    else endPricing(card, 'done');
  };
  /** The connection was cut: the next stream prices again what this one left unfinished. */
  const onResume = () => {
    streamed = new Map();
    claimed = new Set();
    for (const [id, price] of Object.entries(snapshot.prices)) {
      if (price.state !== 'pricing' || retrying.has(id)) continue;
      carried.set(id, price.fares);
      fresh.set(id, []);
    }
  };

  const retry = (searchSolutionId: string) => {
    const property = snapshot.properties.find((known) => known.searchSolutionId === searchSolutionId);
    const current = snapshot.prices[searchSolutionId];
    if (!property || current?.state !== 'failed' || controller.signal.aborted) return;
    retrying.add(searchSolutionId);
    update({
      prices: { ...snapshot.prices, [searchSolutionId]: { state: 'pricing', cheapest: null, fares: [] } },
      pricedCount: snapshot.pricedCount - 1,
    });
    let fares: readonly StayFare[] = [];
    // The fares stream's reader checks what the BFF relays unchecked, with zod: it loads only for a retry.
    const priced = import('../stream-stay-fares.ts').then(
      ({ streamStayFares }) =>
        streamStayFares(
          { searchSolutionId, propertyId: property.propertyId, solutionKey: property.solutionKey, ...stay },
          {
            signal: controller.signal,
            onFares: (sofar) => {
              fares = sofar;
              showPricing(searchSolutionId, sofar);
            },
          },
        ),
      (cause: unknown): StreamEnd => ({ kind: 'error', error: networkError(cause) }),
    );
    void priced.then((end) => {
      retrying.delete(searchSolutionId);
      if (end.kind === 'aborted') return;
      if (end.kind === 'error' && STOPPING_PHASES[end.error.code]) stopWith(end.error);
      else
        endPricing(
          searchSolutionId,
          end.kind === 'done' ? 'done' : end.kind === 'error' ? end.error : null,
          fares,
        );
    });
  };

  const run = async () => {
    publish(snapshot);
    const end = await readResumableEventStream('/api/stays/priced-search', {
      method: 'POST',
      body: { destination: search.destination, ...stay },
      signal: controller.signal,
      onEvent: (message) => {
        const data = safeJson(message.data);
        if (message.event === EVENTS.property) onProperty(data as StaySearchProperty | undefined);
        else if (message.event === EVENTS.fare) onFare(data as PricedStaySearchFare | undefined);
        else if (message.event === EVENTS.propertyEnd)
          onPropertyEnd(data as PricedStaySearchPropertyEnd | undefined);
        else if (message.event === EVENTS.progress) {
          const progress = data as PricedStaySearchProgress | undefined;
          if (progress) update({ expected: progress.expected });
        } else if (message.event === EVENTS.searchEnd) {
          const end = data as PricedStaySearchSearchEnd | undefined;
          update({
            phase: 'pricing',
            expected: snapshot.properties.length,
            truncated: end?.outcome === 'truncated',
          });
        }
      },
      onOpen: (id) => {
        requestId = id;
      },
      onResume,
    });
    if (end.kind === 'aborted') return;
    if (end.kind === 'error') {
      stopWith(end.error);
      return;
    }
    // Whatever the stream left unpriced (it was cut short) has no price: say so on its card.
    const unpriced = snapshot.properties.filter(
      (property) =>
        snapshot.prices[property.searchSolutionId]?.state === 'pricing' &&
        !retrying.has(property.searchSolutionId),
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
