// Stay search's limits and event names, without the schemas (the SPA uses them without loading zod).
export {
  MAX_ADULTS_PER_ROOM,
  MAX_CHILDREN_PER_ROOM,
  MAX_CHILD_AGE,
  MAX_ROOMS,
  STAY_FARES_EVENTS,
  STAY_SEARCH_EVENTS,
} from '../upstream/stay-values.ts';
