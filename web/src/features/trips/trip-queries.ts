import { queryOptions } from '@tanstack/react-query';
import type { SegmentDetailsSchema, TripDetailsSchema, TripsPageSchema } from '#shared/api/trips.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';
import { tripKeys } from './trip-keys.ts';

const LIVE_STATUS_REFRESH_MS = 60_000;
/** The Trips screen reads this many trips at once, the most the travel API gives in a page. */
export const TRIPS_PAGE_LIMIT = 100;

/** Keys from trip-keys.ts: each trip's start with its id. */
export const tripQueries = {
  all: tripKeys.all,
  list: () =>
    queryOptions({
      queryKey: [...tripQueries.all(), 'list'],
      queryFn: ({ signal, queryKey }) =>
        apiJson<Answer<typeof TripsPageSchema>>(`/api/trips?limit=${TRIPS_PAGE_LIMIT}`, {
          signal,
          updatedAtOf: queryKey,
        }),
      refetchInterval: LIVE_STATUS_REFRESH_MS,
    }),
  trip: (tripId: string) =>
    queryOptions({
      queryKey: [...tripKeys.about(tripId), 'timeline'],
      queryFn: ({ signal, queryKey }) =>
        apiJson<Answer<typeof TripDetailsSchema>>(`/api/trips/${encodeURIComponent(tripId)}`, {
          signal,
          updatedAtOf: queryKey,
        }),
      refetchInterval: LIVE_STATUS_REFRESH_MS,
    }),
  segment: (tripId: string, segmentId: string) =>
    queryOptions({
      queryKey: [...tripKeys.about(tripId), 'segments', segmentId],
      queryFn: ({ signal, queryKey }) =>
        apiJson<Answer<typeof SegmentDetailsSchema>>(
          `/api/trips/${encodeURIComponent(tripId)}/segments/${encodeURIComponent(segmentId)}`,
          { signal, updatedAtOf: queryKey },
        ),
      refetchInterval: LIVE_STATUS_REFRESH_MS,
    }),
};
