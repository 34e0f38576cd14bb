import type { QueryClient } from '@tanstack/react-query';
import { sessionQueries, travelerOf } from '../features/auth/session-queries.ts';

/**
 * Runs a route loader's head start (the code and data a page will ask for when it draws, asked for
 * alongside the page's own code) for a signed-in traveler only: the signed-in part's own loader,
 * requireSession, sends anyone else to sign in. Only a head start: a failure is left to the page, which
 * asks again when it draws and says what failed.
 */
export async function headStartForTraveler(
  queryClient: QueryClient,
  start: () => Promise<unknown>,
): Promise<void> {
  const session = await queryClient.ensureQueryData(sessionQueries.current()).catch(() => null);
  if (!travelerOf(session ?? undefined)) return;
  await start().catch(() => undefined);
}
