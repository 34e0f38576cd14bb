import { queryOptions } from '@tanstack/react-query';
import type {
  AirportListSchema,
  FlightSearchResponseSchema,
  FlightSearchRequest,
} from '#shared/api/flights.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';

export const flightQueries = {
  all: () => ['flights'] as const,
  search: (request: FlightSearchRequest) =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'search', request],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof FlightSearchResponseSchema>>('/api/flights/search', {
          method: 'POST',
          body: request,
          signal,
        }),
      staleTime: 5 * 60_000,
      refetchOnWindowFocus: false,
    }),
  airports: (query: string) =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'airports', query],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof AirportListSchema>>(
          `/api/flights/airports?query=${encodeURIComponent(query)}`,
          { signal },
        ),
      enabled: query.trim().length >= 2,
      staleTime: 60 * 60_000,
    }),
};
