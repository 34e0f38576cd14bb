/**
 * The trips' query keys, apart from their queries so the app shell can name them without loading the trip
 * schemas. Keys start with the trip id, so that a live notification about a trip (which invalidates
 * `about(tripId)`) refreshes its timeline and its segment pages where they are open.
 */
export const tripKeys = {
  all: () => ['trips'] as const,
  about: (tripId: string) => [...tripKeys.all(), tripId] as const,
};
