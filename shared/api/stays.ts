// The parts of the travel API contract that reach the SPA unchanged through the BFF.
// The limits and event names are in stay-values.ts, which loads no zod.
export {
  StayFareSchema,
  StayPropertyDetailsSchema,
  StaySearchProgressSchema,
  StaySearchPropertySchema,
} from '../upstream/stays.ts';
export type {
  PropertyImage,
  StayFare,
  StayFaresRequestInput,
  StayPropertyDetails,
  StayRoom,
  StaySearchProperty,
} from '../upstream/stays.ts';
