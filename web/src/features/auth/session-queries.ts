import { queryOptions } from '@tanstack/react-query';
import type { SessionStatus } from '#shared/api/session-status.ts';
import { apiJson } from '../../lib/api-client.ts';

/** GET /api/session: who the browser's session belongs to (the BFF's answer, never a token). */
export type Session = SessionStatus;

export const sessionQueries = {
  all: () => ['session'] as const,
  current: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'current'],
      queryFn: ({ signal }) => apiJson<Session>('/api/session', { signal }),
      staleTime: 60_000,
    }),
};

/** The signed-in traveler of a session, or undefined for visitors and guests. */
export function travelerOf(session: Session | undefined) {
  return session?.authenticated && session.kind === 'traveler' ? session.traveler : undefined;
}
