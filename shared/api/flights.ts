// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export {
  AirportListSchema,
  CABIN_CLASSES,
  CURRENCIES,
  FLIGHT_BOOKING_HORIZON_DAYS,
  FlightSearchResponseSchema,
  MAX_ITINERARY_LEGS,
  MAX_PASSENGERS,
} from '../upstream/flights.ts';
export type {
  Airport,
  CabinClass,
  FlightOffer,
  FlightOfferLeg,
  FlightSearchRequest,
} from '../upstream/flights.ts';
