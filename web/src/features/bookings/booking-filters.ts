import { BOOKING_STATUSES, BOOKING_VERTICALS, TRAVEL_KINDS } from '#shared/api/booking-values.ts';
import { todayIsoDate } from '../../lib/intl-format.ts';

export const BOOKINGS_PAGE_SIZE = 20;

export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export type BookingVertical = (typeof BOOKING_VERTICALS)[number];

/** Which bookings the list leads with: travel still ahead (or under way), travel done, or everything. */
export const BOOKING_WHENS = ['upcoming', 'past', 'all'] as const;
export type BookingWhen = (typeof BOOKING_WHENS)[number];
export type TravelKind = (typeof TRAVEL_KINDS)[number];

export interface BookingListFilters {
  when: BookingWhen;
  travel: TravelKind | '';
  status: BookingStatus[];
  vertical: BookingVertical[];
  from: string;
  to: string;
  offset: number;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function listParam<const Values extends readonly string[]>(
  values: Values,
  text: string | null,
): Values[number][] {
  return (text ?? '').split(',').filter((value): value is Values[number] => values.includes(value));
}

export function bookingFiltersFromParams(params: URLSearchParams): BookingListFilters {
  const offset = Number(params.get('offset'));
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const when = params.get('when');
  const travel = params.get('travel');
  return {
    when: BOOKING_WHENS.find((value) => value === when) ?? 'upcoming',
    travel: TRAVEL_KINDS.find((value) => value === travel) ?? '',
    status: listParam(BOOKING_STATUSES, params.get('status')),
    vertical: listParam(BOOKING_VERTICALS, params.get('vertical')),
    from: ISO_DATE.test(from) ? from : '',
    to: ISO_DATE.test(to) ? to : '',
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The URL of a filter set; empty filters and the default (upcoming) are left out. */
export function bookingFiltersToParams(filters: BookingListFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.when !== 'upcoming') params.set('when', filters.when);
  if (filters.travel) params.set('travel', filters.travel);
  if (filters.status.length) params.set('status', filters.status.join(','));
  if (filters.vertical.length) params.set('vertical', filters.vertical.join(','));
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.offset > 0) params.set('offset', String(filters.offset));
  return params;
}

/**
 * The BFF query of a filter set: upcoming is what ends today or later, soonest first; past is what ended
 * before today, latest first. Today is the traveler's calendar day where they are.
 */
export function bookingsQuery(filters: BookingListFilters, today: string = todayIsoDate()): URLSearchParams {
  const params = new URLSearchParams({ limit: String(BOOKINGS_PAGE_SIZE), offset: String(filters.offset) });
  if (filters.when === 'upcoming') {
    params.set('endFrom', today);
    params.set('sort', 'startDate');
  } else if (filters.when === 'past') {
    params.set('endBefore', today);
  }
  if (filters.travel) params.set('travel', filters.travel);
  if (filters.status.length) params.set('status', filters.status.join(','));
  if (filters.vertical.length) params.set('vertical', filters.vertical.join(','));
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  return params;
}

/** How many filters narrow the list (the dates count one each; "when" is a view, not a filter). */
export function filtersActive(filters: BookingListFilters): number {
  return (
    filters.status.length +
    filters.vertical.length +
    [filters.from, filters.to, filters.travel].filter(Boolean).length
  );
}

export function hasFilters(filters: BookingListFilters): boolean {
  return filtersActive(filters) > 0;
}
