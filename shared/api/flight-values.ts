// Flight search's value sets and limits, without the schemas (the SPA uses them without loading zod).
export {
  CABIN_CLASSES,
  CURRENCIES,
  FLIGHT_BOOKING_HORIZON_DAYS,
  MAX_ITINERARY_LEGS,
  MAX_PASSENGERS,
} from '../upstream/flight-values.ts';
