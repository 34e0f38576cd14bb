import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '../../lib/api-client.ts';

const TravelerSchema = z.looseObject({ id: z.string(), name: z.string(), email: z.string() });

export const SessionSchema = z.union([
  z.looseObject({
    authenticated: z.literal(true),
    kind: z.string(),
    traveler: TravelerSchema.optional(),
    expiresAt: z.string().optional(),
  }),
  z.looseObject({ authenticated: z.literal(false) }),
]);
export type Session = z.infer<typeof SessionSchema>;

export const sessionQueries = {
  all: () => ['session'] as const,
  current: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'current'],
      queryFn: ({ signal }) => apiJson('/api/session', SessionSchema, { signal }),
      staleTime: 60_000,
    }),
};

/** The signed-in traveler of a session, or undefined for visitors and guests. */
export function travelerOf(session: Session | undefined) {
  return session?.authenticated && session.kind === 'traveler' ? session.traveler : undefined;
}
