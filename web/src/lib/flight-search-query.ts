import { queryOptions } from '@tanstack/react-query';
import type { FlightSearchRequest, FlightSearchResponseSchema } from '#shared/api/flights.ts';
import { apiJson, type Answer } from './api-client.ts';

/**
 * A flight search as every screen asks it (the flight search page, a trip's other flights): one cache
 * entry per request, kept five minutes.
 */
export function flightSearchQuery(request: FlightSearchRequest) {
  return queryOptions({
    queryKey: ['flights', 'search', request],
    queryFn: ({ signal }) =>
      apiJson<Answer<typeof FlightSearchResponseSchema>>('/api/flights/search', {
        method: 'POST',
        body: request,
        signal,
      }),
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });
}
