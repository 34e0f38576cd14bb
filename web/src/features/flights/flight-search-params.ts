import { CABIN_CLASSES, MAX_ITINERARY_LEGS, MAX_PASSENGERS } from '#shared/api/flight-values.ts';
import type { CabinClass } from '#shared/api/flights.ts';
import { dateInWords, type ProblemWords } from './problem-words.ts';

export const TRIP_TYPES = ['one-way', 'return', 'multi-city'] as const;
export type TripType = (typeof TRIP_TYPES)[number];

export interface AirportChoice {
  code: string;
  /** What the field shows: "London Heathrow (LHR)", or the code alone when only the code is known. */
  label: string;
}

export interface LegForm {
  origin: AirportChoice | null;
  destination: AirportChoice | null;
  date: string;
}

export interface FlightSearchForm {
  tripType: TripType;
  legs: LegForm[];
  adults: number;
  cabinClass: CabinClass;
}

export const SORTS = ['best', 'cheapest', 'fastest'] as const;
export type FlightSort = (typeof SORTS)[number];

export const DEPARTURE_WINDOWS = ['night', 'morning', 'afternoon', 'evening'] as const;
export type DepartureWindow = (typeof DEPARTURE_WINDOWS)[number];
/** The local hour each window starts at; it runs to the next one's start (the last one to midnight). */
export const DEPARTURE_WINDOW_START_HOURS: Readonly<Record<DepartureWindow, number>> = {
  night: 0,
  morning: 6,
  afternoon: 12,
  evening: 18,
};

export interface FlightResultView {
  sort: FlightSort;
  /** Most stops allowed on every leg; undefined is any. */
  maxStops: number | undefined;
  /** Carrier codes to show; empty is all. */
  airlines: string[];
  /** Departure windows of the first leg; empty is any. */
  departures: DepartureWindow[];
}

const IATA = /^[A-Z]{3}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function airport(code: string | undefined): AirportChoice | null {
  const upper = code?.toUpperCase();
  return upper && IATA.test(upper) ? { code: upper, label: upper } : null;
}

/** `leg=LHR.JFK.2026-12-01`, one per leg, in order. */
export function encodeLeg(leg: LegForm): string {
  return [leg.origin?.code ?? '', leg.destination?.code ?? '', leg.date].join('.');
}

export function decodeLeg(text: string): LegForm {
  const [origin, destination, date] = text.split('.');
  return {
    origin: airport(origin),
    destination: airport(destination),
    date: date && ISO_DATE.test(date) ? date : '',
  };
}

function oneOf<const Values extends readonly string[]>(
  values: Values,
  value: string | null,
  fallback: Values[number],
) {
  return values.includes(value ?? '') ? (value as Values[number]) : fallback;
}

export function flightSearchFormFromParams(
  params: URLSearchParams,
  defaults: { date: string; returnDate: string; home?: AirportChoice | null },
): FlightSearchForm {
  const tripType = oneOf(TRIP_TYPES, params.get('trip'), 'return');
  const legs = params.getAll('leg').slice(0, MAX_ITINERARY_LEGS).map(decodeLeg);
  const adults = Number(params.get('adults'));
  const wanted = tripType === 'one-way' ? 1 : 2;
  while (legs.length < wanted) {
    const previous = legs[legs.length - 1];
    legs.push(
      previous
        ? {
            origin: previous.destination,
            destination: tripType === 'return' ? previous.origin : null,
            date: defaults.returnDate,
          }
        : { origin: defaults.home ?? null, destination: null, date: defaults.date },
    );
  }
  return {
    tripType,
    legs: tripType === 'one-way' ? legs.slice(0, 1) : tripType === 'return' ? legs.slice(0, 2) : legs,
    adults: Number.isInteger(adults) && adults >= 1 && adults <= MAX_PASSENGERS ? adults : 1,
    cabinClass: oneOf(CABIN_CLASSES, params.get('cabin'), 'economy'),
  };
}

/**
 * What a shared or bookmarked search link asked for that the form does not search as it is, in words:
 * a number of adults the form cannot search (it searches for one) and dates that have passed
 * (the traveler chooses new ones). Empty for a link the form takes as it is.
 */
export function linkCorrections(
  params: URLSearchParams,
  form: FlightSearchForm,
  today: string,
  { t, locale }: ProblemWords,
): string[] {
  const notes: string[] = [];
  const asked = params.get('adults');
  if (asked !== null && asked.trim() !== '' && asked !== String(form.adults)) {
    notes.push(t('flights.link.adults', { asked, count: form.adults, max: MAX_PASSENGERS }));
  }
  const past = [...new Set(form.legs.map((leg) => leg.date).filter((date) => date !== '' && date < today))];
  if (past.length > 0) {
    const dates = new Intl.ListFormat(locale, { type: 'conjunction' }).format(
      past.map((date) => dateInWords(date, locale)),
    );
    notes.push(t('flights.link.pastDates', { count: past.length, dates }));
  }
  return notes;
}

export function flightSearchToParams(form: FlightSearchForm, view?: FlightResultView): URLSearchParams {
  const params = new URLSearchParams({ trip: form.tripType });
  for (const leg of form.legs) params.append('leg', encodeLeg(leg));
  params.set('adults', String(form.adults));
  params.set('cabin', form.cabinClass);
  if (view) writeResultView(params, view);
  return params;
}

export function resultViewFromParams(params: URLSearchParams): FlightResultView {
  const stops = params.get('stops');
  const maxStops = stops === null || stops === '' ? undefined : Number(stops);
  return {
    sort: oneOf(SORTS, params.get('sort'), 'best'),
    maxStops: maxStops !== undefined && Number.isInteger(maxStops) && maxStops >= 0 ? maxStops : undefined,
    airlines: (params.get('airlines') ?? '').split(',').filter((code) => /^[A-Z0-9]{2,3}$/.test(code)),
    departures: (params.get('departs') ?? '')
      .split(',')
      .filter((value): value is DepartureWindow => (DEPARTURE_WINDOWS as readonly string[]).includes(value)),
  };
}

export function writeResultView(params: URLSearchParams, view: FlightResultView): URLSearchParams {
  const setOrDelete = (key: string, value: string) => (value ? params.set(key, value) : params.delete(key));
  setOrDelete('sort', view.sort === 'best' ? '' : view.sort);
  setOrDelete('stops', view.maxStops === undefined ? '' : String(view.maxStops));
  setOrDelete('airlines', view.airlines.join(','));
  setOrDelete('departs', view.departures.join(','));
  return params;
}

/** The legs a trip type implies: a return's second leg mirrors the first. */
export function legsForTripType(form: FlightSearchForm, tripType: TripType, returnDate: string): LegForm[] {
  const [first = { origin: null, destination: null, date: '' }, ...rest] = form.legs;
  if (tripType === 'one-way') return [first];
  if (tripType === 'return') {
    const back = rest[0];
    return [first, { origin: first.destination, destination: first.origin, date: back?.date || returnDate }];
  }
  return rest.length > 0
    ? [first, ...rest]
    : [first, { origin: first.destination, destination: null, date: returnDate }];
}
