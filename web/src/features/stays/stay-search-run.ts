import {
  PRICED_STAY_SEARCH_EVENTS as EVENTS,
  PricedStaySearchFareSchema,
  PricedStaySearchProgressSchema,
  PricedStaySearchPropertyEndSchema,
  PricedStaySearchPropertySchema,
  PricedStaySearchSearchEndSchema,
} from '#shared/api/priced-stay-search.ts';
import type { StayFare, StaySearchProperty } from '#shared/api/stays.ts';
import { ApiError } from '../../lib/api-error.ts';
import { readEventStream } from '../../lib/event-stream.ts';
import { safeJson } from '../../lib/safe-json.ts';
import type { StaySearch } from './stay-search-params.ts';

export type PropertyPrice =
  | { state: 'waiting' }
  | { state: 'pricing'; cheapest: StayFare | null }
  | { state: 'priced'; cheapest: StayFare; fareCount: number }
  | { state: 'no-rooms' }
  | { state: 'failed'; error: ApiError | null };

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
  error: ApiError | null;
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

/**
 * Runs one stay search over one stream (POST /api/stays/priced-search): the BFF sends each property as
 * the search finds it, then each property's fares and ending as its pricing goes. Every change is
 * published as a new snapshot. The run never repeats itself; `stop` closes the stream, and the BFF
 * aborts every upstream call of the search with it.
 */
export function startStaySearchRun(search: StaySearch, publish: (snapshot: StaySearchSnapshot) => void) {
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
  const fareCounts = new Map<string, number>();

  const onProperty = (data: unknown) => {
    const parsed = PricedStaySearchPropertySchema.safeParse(data);
    if (!parsed.success) return;
    const property = parsed.data;
    if (snapshot.properties.some((known) => known.searchSolutionId === property.searchSolutionId)) return;
    update({
      properties: [...snapshot.properties, property],
      prices: { ...snapshot.prices, [property.searchSolutionId]: { state: 'pricing', cheapest: null } },
    });
  };
  const onFare = (data: unknown) => {
    const parsed = PricedStaySearchFareSchema.safeParse(data);
    if (!parsed.success) return;
    const { searchSolutionId, fare } = parsed.data;
    fareCounts.set(searchSolutionId, (fareCounts.get(searchSolutionId) ?? 0) + 1);
    const current = snapshot.prices[searchSolutionId];
    const cheapest = current?.state === 'pricing' ? current.cheapest : null;
    if (!cheapest || fare.totalPrice < cheapest.totalPrice)
      setPrice(searchSolutionId, { state: 'pricing', cheapest: fare });
  };
  const onPropertyEnd = (data: unknown) => {
    const parsed = PricedStaySearchPropertyEndSchema.safeParse(data);
    if (!parsed.success) return;
    const ending = parsed.data;
    const current = snapshot.prices[ending.searchSolutionId];
    const cheapest = current?.state === 'pricing' ? current.cheapest : null;
    if (ending.outcome === 'priced' && cheapest) {
      const fareCount = fareCounts.get(ending.searchSolutionId) ?? ending.fareCount;
      setPrice(ending.searchSolutionId, { state: 'priced', cheapest, fareCount }, true);
    } else if (ending.outcome === 'failed') {
      const error = new ApiError({ status: 200, body: ending.error.error, requestId });
      setPrice(ending.searchSolutionId, { state: 'failed', error }, true);
    } else if (ending.outcome === 'no-rooms') {
      setPrice(ending.searchSolutionId, { state: 'no-rooms' }, true);
    } else {
      // Rates that arrived but could not be read are not "no rooms": say the answer was unexpected.
      setPrice(ending.searchSolutionId, { state: 'failed', error: null }, true);
    }
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
      update({ phase: STOPPING_PHASES[end.error.code] ?? 'failed', error: end.error });
      return;
    }
    // Whatever the stream left unpriced (it was cut short) has no price: say so on its card.
    const unpriced = snapshot.properties.filter(
      (property) => snapshot.prices[property.searchSolutionId]?.state === 'pricing',
    );
    for (const property of unpriced)
      setPrice(property.searchSolutionId, { state: 'failed', error: null }, true);
    update({
      phase: 'complete',
      expected: snapshot.properties.length,
      truncated: snapshot.truncated || end.kind === 'truncated',
    });
  };
  void run();

  return { stop: () => controller.abort() };
}
