import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { sessionQueries, travelerOf } from '../features/auth/session-queries.ts';

/**
 * Loader of a trip's page: the trip is asked for alongside the page's code, rather than once the page
 * has drawn. Only for a signed-in traveler (the signed-in part's own loader, requireSession, sends anyone
 * else to sign in); the page asks again when it draws, and says what failed.
 */
export function tripLoader(queryClient: QueryClient) {
  return async ({ params }: LoaderFunctionArgs) => {
    const session = await queryClient.ensureQueryData(sessionQueries.current()).catch(() => null);
    const { tripId } = params;
    if (!travelerOf(session ?? undefined) || !tripId) return null;
    try {
      const { tripQueries } = await import('../features/trips/trip-queries.ts');
      void queryClient.prefetchQuery(tripQueries.trip(tripId));
    } catch {
      // Only a head start.
    }
    return null;
  };
}
