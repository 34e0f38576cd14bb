// The bookings' closed value sets, in a module without zod: the SPA's filters and chips use them
// without loading a schema library (bookings.ts builds the schemas from them).

/** Verticals and statuses the service gives; both sets are open in responses. */
export const BOOKING_VERTICALS = ['flight', 'stay', 'rail', 'car'] as const;
export const BOOKING_STATUSES = ['confirmed', 'pending', 'cancelled', 'completed'] as const;

/** Kinds of travel a booking is made for (`bookingProfile`: true is personal, false business). */
export const TRAVEL_KINDS = ['business', 'personal'] as const;
