// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export { StayPropertyDestinationSchema, parseStayDestinations } from '../upstream/destinations.ts';
export type { StayDestination, StayPropertyDestination } from '../upstream/destinations.ts';
