import { z } from 'zod';
import { MoneySchema } from './flights.ts';
import { OffsetPageQuerySchema, offsetPageSchema } from './pagination.ts';
import { BOOKING_STATUSES, BOOKING_VERTICALS, TRAVEL_KINDS } from './booking-values.ts';

export { BOOKING_STATUSES, BOOKING_VERTICALS, TRAVEL_KINDS };

/** A city's names by language (`{ en: 'London', es: 'Londres' }`; additive), when the service has them. */
const CityNamesSchema = z.record(z.string(), z.string()).optional();

/** A city a booking goes through, with its names by language (additive). */
export const BookingCitySchema = z.looseObject({ city: z.string(), cityNames: CityNamesSchema });
export type BookingCity = z.infer<typeof BookingCitySchema>;

export const BookingSchema = z.looseObject({
  bookingId: z.uuid(),
  /** The booking reference a traveler quotes (six letters and digits). */
  reference: z.string(),
  vertical: z.string(),
  status: z.string(),
  title: z.string(),
  /** Local dates of the service: departure and arrival, check-in and check-out, pick-up and return. */
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  tripId: z.uuid().nullable(),
  segmentId: z.uuid().nullable(),
  location: z.looseObject({
    city: z.string(),
    countryCode: z.string().nullable(),
    cityNames: CityNamesSchema,
  }),
  /**
   * A flight's or train's cities in the order it reaches them, its origin first (a return ends where it
   * began), connections left out (additive); absent for a stay, a car, and bookings stored before it.
   */
  route: z.array(BookingCitySchema).optional(),
  totalPrice: MoneySchema,
  /** true is personal travel, false business travel (as in stay fares). */
  bookingProfile: z.boolean(),
  bookedAt: z.iso.datetime(),
});
export type Booking = z.infer<typeof BookingSchema>;

/** GET /v1/bookings: the legacy plain array (Versioning 5). */
export const BookingListSchema = z.array(BookingSchema);

/** GET /v1/bookings/page: the page envelope; meta.totalCount is the service's mirror count. */
export const BookingsPageSchema = offsetPageSchema(BookingSchema);
export type BookingsPage = z.infer<typeof BookingsPageSchema>;

/** A comma-separated list of values from a closed set, from a query string (`status=confirmed,pending`). */
function listOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z
    .string()
    .transform((text) => text.split(',').map((value) => value.trim()))
    .pipe(z.array(z.enum(values)).min(1));
}

/** Orders of a bookings list: by start date, soonest first (`startDate`) or latest first (`-startDate`). */
export const BOOKING_SORTS = ['startDate', '-startDate'] as const;

const bookingFilterFields = {
  status: listOf(BOOKING_STATUSES).optional(),
  vertical: listOf(BOOKING_VERTICALS).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  /** Additive: bookings that end on or after this date (upcoming and in progress). */
  endFrom: z.iso.date().optional(),
  /** Additive: bookings that ended before this date (past). */
  endBefore: z.iso.date().optional(),
  /** Additive: business or personal bookings only. */
  travel: z.enum(TRAVEL_KINDS).optional(),
  /** Additive: the order; latest start first when absent, as before. */
  sort: z.enum(BOOKING_SORTS).optional(),
};

function datesInOrder(filters: { from?: string | undefined; to?: string | undefined }): boolean {
  return !filters.from || !filters.to || filters.from <= filters.to;
}
const DATES_IN_ORDER = {
  path: ['to'],
  message: 'to must not be before from',
  params: { rule: 'greater_than_equal' },
};

/**
 * Filters of both bookings operations. `from` and `to` bound the booking's start date, both inclusive,
 * as YYYY-MM-DD; `status` and `vertical` take one value or a comma-separated list.
 */
export const BookingFiltersSchema = z.object(bookingFilterFields).refine(datesInOrder, DATES_IN_ORDER);
export type BookingFilters = z.output<typeof BookingFiltersSchema>;

/** Query of GET /v1/bookings/page: the filters with limit and offset. */
export const BookingsPageQuerySchema = z
  .object({ ...OffsetPageQuerySchema.shape, ...bookingFilterFields })
  .refine(datesInOrder, DATES_IN_ORDER);
export type BookingsPageQuery = z.output<typeof BookingsPageQuerySchema>;
