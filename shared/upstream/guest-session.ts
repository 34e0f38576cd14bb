import { z } from 'zod';

/** Every guest session token starts with this, so that the service tells it apart from a JWT. */
export const GUEST_TOKEN_PREFIX = 'wgs_';

/**
 * Response of POST /v1/guest-sessions (additive, signed, no bearer). The token is opaque; it is sent
 * as `Authorization: Bearer <guestToken>` in place of a traveler's JWT, and only POST /v1/stays/fares
 * accepts it.
 */
export const GuestSessionSchema = z.looseObject({
  guestToken: z.string().startsWith(GUEST_TOKEN_PREFIX),
  expiresAt: z.iso.datetime(),
});
export type GuestSession = z.infer<typeof GuestSessionSchema>;
