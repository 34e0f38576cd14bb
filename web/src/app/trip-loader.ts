import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { headStartForTraveler } from './traveler-head-start.ts';

/**
 * Loader of a trip's page: the trip is asked for alongside the page's code, rather than once the page
 * has drawn. Only for a signed-in traveler (the signed-in part's own loader, requireSession, sends anyone
 * else to sign in); the page asks again when it draws, and says what failed.
 */
export function tripLoader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    const { tripId } = params;
    if (!tripId) return null;
    await headStartForTraveler(queryClient, async () => {
      const { tripQueries } = await import('../features/trips/trip-queries.ts');
      void queryClient.prefetchQuery(tripQueries.trip(tripId));
    });
    return null;
  };
}
