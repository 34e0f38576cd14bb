import { lazy } from 'react';

/**
 * What other features use of trips: the start page's next-trip panel. Its code (the trips' queries and
 * timeline) is fetched when it first draws, for travelers only.
 */
export const NextTripPanel = lazy(async () => ({
  default: (await import('./next-trip-panel.tsx')).NextTripPanel,
}));
