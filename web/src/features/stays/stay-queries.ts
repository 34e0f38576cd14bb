import { queryOptions } from '@tanstack/react-query';
import { parseStayDestinations } from '#shared/api/destinations.ts';
import { apiJson } from '../../lib/api-client.ts';

export const stayQueries = {
  all: () => ['stays'] as const,
  destinations: (query: string) =>
    queryOptions({
      queryKey: [...stayQueries.all(), 'destinations', query],
      queryFn: async ({ signal }) =>
        parseStayDestinations(
          await apiJson<unknown>(`/api/stays/destinations?query=${encodeURIComponent(query)}`, {
            signal,
          }),
        ),
      enabled: query.trim().length >= 2,
      staleTime: 10 * 60_000,
    }),
};
