import type { QueryClient } from '@tanstack/react-query';
import { headStartForTraveler } from './traveler-head-start.ts';

/**
 * Loader of the start page. A visitor's start page needs nothing more. A traveler's is their home, led
 * by the next trip: its code and the trips list are fetched here, alongside the page's own code, rather
 * than one after the other once the page has drawn.
 */
export function travelerHomeLoader(queryClient: QueryClient) {
  return async () => {
    // The panel fetches its own code and data when it draws, and says if that fails.
    await headStartForTraveler(queryClient, async () => {
      const [{ tripQueries }] = await Promise.all([
        import('../features/trips/trip-queries.ts'),
        import('../features/trips/next-trip-panel.tsx'),
      ]);
      void queryClient.prefetchQuery(tripQueries.list());
    });
    return null;
  };
}
