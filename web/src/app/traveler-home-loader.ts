import type { QueryClient } from '@tanstack/react-query';
import { sessionQueries, travelerOf } from '../features/auth/session-queries.ts';

/**
 * Loader of the start page. A visitor's start page needs nothing more. A traveler's is their home, led
 * by the next trip: its code and the trips list are fetched here, alongside the page's own code, rather
 * than one after the other once the page has drawn.
 */
export function travelerHomeLoader(queryClient: QueryClient) {
  return async () => {
    const session = await queryClient.ensureQueryData(sessionQueries.current()).catch(() => null);
    if (!travelerOf(session ?? undefined)) return null;
    try {
      const [{ tripQueries }] = await Promise.all([
        import('../features/trips/trip-queries.ts'),
        import('../features/trips/next-trip-panel.tsx'),
      ]);
      void queryClient.prefetchQuery(tripQueries.list());
    } catch {
      // Only a head start: the panel fetches its own code and data when it draws, and says if that fails.
    }
    return null;
  };
}
