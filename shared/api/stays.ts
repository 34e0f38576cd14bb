// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export {
  MAX_ADULTS_PER_ROOM,
  MAX_CHILDREN_PER_ROOM,
  MAX_CHILD_AGE,
  MAX_ROOMS,
  STAY_FARES_EVENTS,
  STAY_SEARCH_EVENTS,
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
