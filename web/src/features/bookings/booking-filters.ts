import { BOOKING_STATUSES, BOOKING_VERTICALS } from '#shared/api/bookings.ts';

export const BOOKINGS_PAGE_SIZE = 20;

export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export type BookingVertical = (typeof BOOKING_VERTICALS)[number];

export interface BookingListFilters {
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
  return {
    status: listParam(BOOKING_STATUSES, params.get('status')),
    vertical: listParam(BOOKING_VERTICALS, params.get('vertical')),
    from: ISO_DATE.test(from) ? from : '',
    to: ISO_DATE.test(to) ? to : '',
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The URL (and the BFF query) of a filter set; empty filters are left out. */
export function bookingFiltersToParams(
  filters: BookingListFilters,
  { withLimit = false } = {},
): URLSearchParams {
  const params = new URLSearchParams();
  if (withLimit) params.set('limit', String(BOOKINGS_PAGE_SIZE));
  if (filters.status.length) params.set('status', filters.status.join(','));
  if (filters.vertical.length) params.set('vertical', filters.vertical.join(','));
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.offset > 0 || withLimit) params.set('offset', String(filters.offset));
  return params;
}

export function hasFilters(filters: BookingListFilters): boolean {
  return filters.status.length > 0 || filters.vertical.length > 0 || Boolean(filters.from || filters.to);
}
