// Flight search's closed value sets and limits, in a module without zod: the SPA's search form and
// profile use them without loading a schema library (flights.ts builds the schemas from them).

/** Cabin classes of flight search; the set is closed for requests and open in responses. */
export const CABIN_CLASSES = ['economy', 'premium_economy', 'business', 'first'] as const;

/** Currencies the service prices in. */
export const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD'] as const;

export const MAX_ITINERARY_LEGS = 6;
export const MAX_PASSENGERS = 9;

/** Flights are sold this many days ahead at most (a search further out is 422 on its date). */
export const FLIGHT_BOOKING_HORIZON_DAYS = 361;
