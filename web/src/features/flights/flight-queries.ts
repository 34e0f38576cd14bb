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
  /** Airports matching `query`, their cities named (and matched) in `locale`'s language as well as English. */
  airports: (query: string, locale: string) =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'airports', query, locale],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof AirportListSchema>>(
          `/api/flights/airports?${new URLSearchParams({ query, locale }).toString()}`,
          { signal },
        ),
      enabled: query.trim().length >= 2,
      staleTime: 60 * 60_000,
    }),
};
