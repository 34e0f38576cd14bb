// The bookings' value sets, without the schemas (the SPA uses them without loading zod).
export { BOOKING_STATUSES, BOOKING_VERTICALS, TRAVEL_KINDS } from '../upstream/booking-values.ts';
