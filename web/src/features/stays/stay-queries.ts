import { queryOptions } from '@tanstack/react-query';
import type { StayPropertyDetailsSchema } from '#shared/api/stays.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';

export const stayQueries = {
  all: () => ['stays'] as const,
  /** Stay destinations matching `query`, cities named (and matched) in `locale`'s language as well as English. */
  destinations: (query: string, locale: string) =>
    queryOptions({
      queryKey: [...stayQueries.all(), 'destinations', query, locale],
      // The items of types this version does not know are dropped, with zod: it loads with the first
      // suggestions asked for, not with the page.
      queryFn: async ({ signal }) => {
        const [{ parseStayDestinations }, answer] = await Promise.all([
          import('#shared/api/destinations.ts'),
          apiJson<unknown>(`/api/stays/destinations?${new URLSearchParams({ query, locale }).toString()}`, {
            signal,
          }),
        ]);
        return parseStayDestinations(answer);
      },
      enabled: query.trim().length >= 2,
      staleTime: 10 * 60_000,
    }),
  /** A hotel by its autocomplete id: address, stars, guest score, amenities and picture. */
  property: (propertyId: string) =>
    queryOptions({
      queryKey: [...stayQueries.all(), 'property', propertyId],
      queryFn: ({ signal }) =>
        apiJson<Answer<typeof StayPropertyDetailsSchema>>(
          `/api/stays/properties/${encodeURIComponent(propertyId)}`,
          { signal },
        ),
      staleTime: 60 * 60_000,
    }),
};
