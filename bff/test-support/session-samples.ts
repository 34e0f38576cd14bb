import { newSessionId } from '../sessions/session-plugin.ts';
import type { LoginTransaction, StoredSession } from '../sessions/session-store.ts';

/** A signed-in traveler's session as the stores keep it, live for a minute; `overrides` change any part. */
export function sampleSession(overrides: Partial<StoredSession> = {}): StoredSession {
  const now = Date.now();
  return {
    id: newSessionId(),
    kind: 'traveler',
    createdAt: now,
    lastSeenAt: now,
    absoluteExpiresAt: now + 60_000,
    travelerId: 'traveler-a',
    identitySessionId: 'sid-a',
    accessToken: 'access',
    accessTokenExpiresAt: now + 60_000,
    refreshToken: 'refresh',
    ...overrides,
  };
}

/** A sign-in under way, for a minute. */
export function sampleLoginTransaction(): LoginTransaction {
  return {
    id: newSessionId(),
    state: 's',
    nonce: 'n',
    codeVerifier: 'v',
    returnTo: '/',
    expiresAt: Date.now() + 60_000,
  };
}
