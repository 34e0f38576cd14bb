import { z } from 'zod';

/** Answer of POST /api/guest-session: the guest session now set in the cookie, as GET /api/session shows it. */
export const GuestSessionStatusSchema = z.object({
  authenticated: z.literal(true),
  kind: z.literal('guest'),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type GuestSessionStatus = z.infer<typeof GuestSessionStatusSchema>;
