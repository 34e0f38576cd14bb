import { queryOptions } from '@tanstack/react-query';
import { SegmentDetailsSchema } from '../../../../shared/upstream/trips.ts';
import { apiJson } from '../../lib/api-client.ts';

const LIVE_STATUS_REFRESH_MS = 60_000;

export const tripQueries = {
  all: () => ['trips'] as const,
  segment: (tripId: string, segmentId: string) =>
    queryOptions({
      queryKey: [...tripQueries.all(), tripId, 'segments', segmentId],
      queryFn: ({ signal }) =>
        apiJson(
          `/api/trips/${encodeURIComponent(tripId)}/segments/${encodeURIComponent(segmentId)}`,
          SegmentDetailsSchema,
          { signal },
        ),
      refetchInterval: LIVE_STATUS_REFRESH_MS,
    }),
};
