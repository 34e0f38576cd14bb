import type { FlightOffer } from '#shared/api/flights.ts';
import {
  DEPARTURE_WINDOW_START_HOURS,
  DEPARTURE_WINDOWS,
  type DepartureWindow,
  type FlightResultView,
} from './flight-search-params.ts';

/** The window of a local departure time (`2026-12-01T07:35:00+01:00` is morning, at the airport). */
export function departureWindowOf(localIso: string): DepartureWindow {
  const hour = Number(localIso.slice(11, 13));
  return DEPARTURE_WINDOWS.findLast((window) => hour >= DEPARTURE_WINDOW_START_HOURS[window]) ?? 'night';
}

export function totalMinutes(offer: FlightOffer): number {
  return offer.legs.reduce((sum, leg) => sum + leg.durationMinutes, 0);
}

export function maxStopsOf(offer: FlightOffer): number {
  return Math.max(...offer.legs.map((leg) => leg.stops));
}

/**
 * "Best" weighs price and total time against the cheapest and fastest offers of the same search,
 * with a small penalty per stop, so a slightly dearer nonstop can beat a long cheap connection.
 */
function bestScores(offers: readonly FlightOffer[]): Map<FlightOffer, number> {
  const cheapest = Math.min(...offers.map((offer) => offer.totalPrice.amount));
  const fastest = Math.min(...offers.map(totalMinutes));
  return new Map(
    offers.map((offer) => [
      offer,
      offer.totalPrice.amount / cheapest +
        totalMinutes(offer) / fastest +
        0.15 * offer.legs.reduce((sum, leg) => sum + leg.stops, 0),
    ]),
  );
}

export function filterOffers(offers: readonly FlightOffer[], view: FlightResultView): FlightOffer[] {
  return offers.filter((offer) => {
    if (view.maxStops !== undefined && maxStopsOf(offer) > view.maxStops) return false;
    if (view.airlines.length > 0 && !offer.carriers.some((carrier) => view.airlines.includes(carrier.code)))
      return false;
    const first = offer.legs[0];
    if (
      view.departures.length > 0 &&
      first &&
      !view.departures.includes(departureWindowOf(first.departureTime))
    ) {
      return false;
    }
    return true;
  });
}

export function arrangeOffers(offers: readonly FlightOffer[], view: FlightResultView): FlightOffer[] {
  const shown = filterOffers(offers, view);
  if (shown.length === 0) return shown;
  const byPrice = (left: FlightOffer, right: FlightOffer) => left.totalPrice.amount - right.totalPrice.amount;
  const byTime = (left: FlightOffer, right: FlightOffer) => totalMinutes(left) - totalMinutes(right);
  if (view.sort === 'cheapest')
    return shown.sort((left, right) => byPrice(left, right) || byTime(left, right));
  if (view.sort === 'fastest')
    return shown.sort((left, right) => byTime(left, right) || byPrice(left, right));
  const scores = bestScores(shown);
  return shown.sort(
    (left, right) => (scores.get(left) ?? 0) - (scores.get(right) ?? 0) || byPrice(left, right),
  );
}

/**
 * Orders carrier names as `localeCompare` does, with one collator: `localeCompare` makes a collator for
 * every comparison it is called for, which cost a phone about 50 ms per results page.
 */
let collator: Intl.Collator | undefined;

/** Carriers of the search, for the airline filter, by name. */
export function carriersOf(offers: readonly FlightOffer[]): Array<{ code: string; name: string }> {
  const byCode = new Map<string, string>();
  for (const offer of offers) for (const carrier of offer.carriers) byCode.set(carrier.code, carrier.name);
  collator ??= new Intl.Collator();
  const { compare } = collator;
  return [...byCode]
    .map(([code, name]) => ({ code, name }))
    .sort((left, right) => compare(left.name, right.name));
}
