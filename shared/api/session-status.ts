import { z } from 'zod';

export const SESSION_KINDS = ['traveler', 'guest'] as const;

export const SessionTravelerSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** The profile's locale as the BFF last saw it (at sign-in, or a profile read or saved): the app's first paint is in its language. */
  locale: z.string().optional(),
});
export type SessionTraveler = z.infer<typeof SessionTravelerSchema>;

/**
 * GET /api/session: who the browser's session belongs to, never a token. `expiresAt` is the earlier of
 * the idle deadline and the absolute lifetime; activity moves the idle deadline forward.
 */
export const SessionStatusSchema = z.discriminatedUnion('authenticated', [
  z.object({ authenticated: z.literal(false) }),
  z.discriminatedUnion('kind', [
    z.object({
      authenticated: z.literal(true),
      kind: z.literal('traveler'),
      traveler: SessionTravelerSchema,
      expiresAt: z.iso.datetime({ offset: true }),
    }),
    z.object({
      authenticated: z.literal(true),
      kind: z.literal('guest'),
      expiresAt: z.iso.datetime({ offset: true }),
    }),
  ]),
]);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;
