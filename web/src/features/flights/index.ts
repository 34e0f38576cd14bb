/** What other features use of flights: the airport field (the profile's home airport). */
export { AirportField } from './airport-field.tsx';
export type { AirportChoice } from './flight-search-params.ts';
