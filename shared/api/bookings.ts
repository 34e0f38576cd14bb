// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export {
  BOOKING_STATUSES,
  BOOKING_VERTICALS,
  BookingsPageSchema,
  TRAVEL_KINDS,
} from '../upstream/bookings.ts';
export type { Booking } from '../upstream/bookings.ts';
