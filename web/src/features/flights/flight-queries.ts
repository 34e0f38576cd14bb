import { queryOptions } from '@tanstack/react-query';
import type { AirportListSchema } from '#shared/api/flights.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';
import { flightSearchQuery } from '../../lib/flight-search-query.ts';

export const flightQueries = {
  all: () => ['flights'] as const,
  /** Keyed under all() (lib/flight-search-query.ts), shared with a trip's other flights. */
  search: flightSearchQuery,
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
