import type { FastifyInstance } from 'fastify';
import { newSessionId } from '../sessions/session-plugin.ts';

/**
 * Writes a signed-in traveler's session into the app's session store (shared by a fleet's instances), as
 * a sign-in would: an hour long, with the access token the scripted travel API reads the traveler from
 * (`access-token-<traveler id>`). Returns its id and the cookie a browser of that session sends.
 */
export async function seedTravelerSession(
  app: FastifyInstance,
  travelerId: string,
): Promise<{ sessionId: string; cookie: string }> {
  const now = Date.now();
  const hour = 60 * 60 * 1000;
  const sessionId = newSessionId();
  await app.sessions.store.set({
    id: sessionId,
    kind: 'traveler',
    createdAt: now,
    lastSeenAt: now,
    absoluteExpiresAt: now + hour,
    travelerId,
    name: 'Test Traveler',
    email: 'traveler@wayfare.test',
    accessToken: `access-token-${travelerId}`,
    accessTokenExpiresAt: now + hour,
    accessTokenIssuedAt: now,
  });
  return { sessionId, cookie: `${app.sessions.cookie.name}=${sessionId}` };
}
