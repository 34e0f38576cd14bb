import {
  STAY_SEARCH_EVENTS,
  StaySearchProgressSchema,
  StaySearchPropertySchema,
  type StayFare,
  type StaySearchProperty,
} from '#shared/api/stays.ts';
import type { ApiError } from '../../lib/api-error.ts';
import { readEventStream } from '../../lib/event-stream.ts';
import { safeJson } from '../../lib/safe-json.ts';
import type { StaySearch } from './stay-search-params.ts';
import { streamStayFares } from './stream-stay-fares.ts';

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

const FARE_CONCURRENCY = 4;
const STOPPING_CODES = new Set(['MAX_NIGHTS_EXCEEDED', 'OFFER_EXPIRED']);

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
 * Runs one stay search: the search stream yields properties, and each property is priced by its own
 * fares stream (a few at a time) as soon as it arrives. Every change is published as a new snapshot.
 * The run never repeats itself; `stop` aborts every open stream.
 */
export function startStaySearchRun(search: StaySearch, publish: (snapshot: StaySearchSnapshot) => void) {
  const controller = new AbortController();
  let snapshot = INITIAL_SNAPSHOT;
  let searchEnded = false;
  const queue: StaySearchProperty[] = [];
  let active = 0;

  const update = (change: Partial<StaySearchSnapshot>) => {
    snapshot = { ...snapshot, ...change };
    publish(snapshot);
  };
  const setPrice = (property: StaySearchProperty, price: PropertyPrice, finished = false) => {
    update({
      prices: { ...snapshot.prices, [property.searchSolutionId]: price },
      pricedCount: snapshot.pricedCount + (finished ? 1 : 0),
    });
  };
  const settleIfComplete = () => {
    if (searchEnded && active === 0 && queue.length === 0 && snapshot.phase === 'pricing') {
      update({ phase: 'complete' });
    }
  };
  const stopEverything = (phase: StaySearchSnapshot['phase'], error: ApiError) => {
    update({ phase, error });
    controller.abort();
  };

  const price = async (property: StaySearchProperty) => {
    let cheapest: StayFare | null = null;
    let fareCount = 0;
    setPrice(property, { state: 'pricing', cheapest });
    const end = await streamStayFares(
      {
        searchSolutionId: property.searchSolutionId,
        propertyId: property.propertyId,
        solutionKey: property.solutionKey,
        checkIn: search.checkIn,
        checkOut: search.checkOut,
        rooms: search.rooms,
        bookingProfile: search.bookingProfile,
      },
      {
        signal: controller.signal,
        onFare: (fare) => {
          fareCount += 1;
          if (!cheapest || fare.totalPrice < cheapest.totalPrice) {
            cheapest = fare;
            setPrice(property, { state: 'pricing', cheapest });
          }
        },
      },
    );
    if (end.kind === 'aborted') return;
    if (end.kind === 'error' && STOPPING_CODES.has(end.error.code)) {
      stopEverything(end.error.code === 'MAX_NIGHTS_EXCEEDED' ? 'max-nights' : 'offer-expired', end.error);
      return;
    }
    const found: StayFare | null = cheapest;
    if (end.kind === 'done' && found)
      setPrice(property, { state: 'priced', cheapest: found, fareCount }, true);
    else if (end.kind === 'done') setPrice(property, { state: 'no-rooms' }, true);
    else setPrice(property, { state: 'failed', error: end.kind === 'error' ? end.error : null }, true);
  };

  const pump = () => {
    while (active < FARE_CONCURRENCY && queue.length > 0 && !controller.signal.aborted) {
      const next = queue.shift();
      if (!next) break;
      active += 1;
      void price(next).finally(() => {
        active -= 1;
        pump();
        settleIfComplete();
      });
    }
  };

  const run = async () => {
    publish(snapshot);
    const end = await readEventStream('/api/stays/search', {
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
        if (message.event === STAY_SEARCH_EVENTS.property) {
          const parsed = StaySearchPropertySchema.safeParse(data);
          if (!parsed.success) return;
          const property = parsed.data;
          if (snapshot.properties.some((known) => known.searchSolutionId === property.searchSolutionId))
            return;
          update({
            properties: [...snapshot.properties, property],
            prices: { ...snapshot.prices, [property.searchSolutionId]: { state: 'waiting' } },
          });
          queue.push(property);
          pump();
        } else if (message.event === STAY_SEARCH_EVENTS.progress) {
          const parsed = StaySearchProgressSchema.safeParse(data);
          if (parsed.success) update({ expected: parsed.data.expected });
        }
      },
    });
    if (end.kind === 'aborted') return;
    searchEnded = true;
    if (end.kind === 'error') {
      stopEverything(end.error.code === 'MAX_NIGHTS_EXCEEDED' ? 'max-nights' : 'failed', end.error);
      return;
    }
    update({
      phase: 'pricing',
      expected: snapshot.properties.length,
      truncated: end.kind === 'truncated',
    });
    settleIfComplete();
  };
  void run();

  return { stop: () => controller.abort() };
}
