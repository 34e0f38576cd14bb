import type { FlightSearchRequest } from '#shared/api/flights.ts';
import type { Profile } from '#shared/api/profile.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import {
  flightSearchFormFromParams,
  type AirportChoice,
  type FlightSearchForm,
} from './flight-search-params.ts';
import { toFlightSearchRequest, validateFlightSearch } from './validate-flight-search.ts';

/** The profile's home airport as the form takes it, by its code until the airport list names it. */
export function homeAirportChoice(homeAirport: string | null | undefined): AirportChoice | null {
  return homeAirport ? { code: homeAirport, label: homeAirport } : null;
}

/**
 * The flights page's form for its address: what the address says, the rest from the defaults (three
 * weeks from today, back a week later, from the traveler's home airport).
 */
export function flightsPageForm(
  params: URLSearchParams,
  today: string,
  homeAirport: string | null | undefined,
): FlightSearchForm {
  return flightSearchFormFromParams(params, {
    date: addDays(today, 21),
    returnDate: addDays(today, 28),
    home: homeAirportChoice(homeAirport),
  });
}

/** No words: only whether a form has problems is asked, never what they are. */
const WORDLESS = { t: () => '', locale: 'en' };

/**
 * Whether the page shows results for its address: a search in it (a results link) that the form would
 * send as it is; otherwise the page opens on the form, with the problems marked.
 */
export function searchesAsLinked(params: URLSearchParams, form: FlightSearchForm, today: string): boolean {
  return params.has('leg') && Object.keys(validateFlightSearch(form, today, WORDLESS)).length === 0;
}

/**
 * The search a results link runs once the profile is known, as the page sends it (in the traveler's
 * currency): the flights route's loader asks for it alongside the page's code (app/flights-loader.ts).
 * Null when the address shows the form instead.
 */
export function linkedFlightSearch(
  params: URLSearchParams,
  profile: Pick<Profile, 'homeAirport' | 'currency'>,
  today: string = todayIsoDate(),
): FlightSearchRequest | null {
  const form = flightsPageForm(params, today, profile.homeAirport);
  return searchesAsLinked(params, form, today) ? toFlightSearchRequest(form, profile.currency) : null;
}
