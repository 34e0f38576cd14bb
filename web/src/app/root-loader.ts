import type { QueryClient } from '@tanstack/react-query';
import { sessionQueries } from '../features/auth/session-queries.ts';
import { demoQueries } from '../features/demo/demo-queries.ts';

/**
 * Loader of every page: the session, and whether the demo controls are on, both asked at once and both
 * known before the first paint. The layout draws the demo strip from that answer, so the strip is in
 * place from the start instead of pushing the page down under the traveler's pointer a moment later.
 * Neither answer is needed to show the page: a failure of either leaves it to the screens to say.
 */
export function rootLoader(queryClient: QueryClient) {
  return async () => {
    const [session] = await Promise.all([
      queryClient.ensureQueryData(sessionQueries.current()).catch(() => null),
      queryClient.ensureQueryData(demoQueries.status()).catch(() => null),
    ]);
    return session;
  };
}
