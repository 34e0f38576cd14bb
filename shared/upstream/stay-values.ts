// Stay search's limits and event names, in a module without zod: the SPA's search form and stream
// readers use them without loading a schema library (stays.ts builds the schemas from them).

export const MAX_ROOMS = 8;
export const MAX_ADULTS_PER_ROOM = 6;
export const MAX_CHILDREN_PER_ROOM = 6;
export const MAX_CHILD_AGE = 17;

/** Events of the stay search stream, in order: property* (with progress between), then done or error. */
export const STAY_SEARCH_EVENTS = {
  property: 'property',
  progress: 'progress',
  done: 'done',
  error: 'error',
} as const;

/** Events of the stay fares stream: fare*, then done or error. */
export const STAY_FARES_EVENTS = { fare: 'fare', done: 'done', error: 'error' } as const;
