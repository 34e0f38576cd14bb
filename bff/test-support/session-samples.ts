import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SharedRedis } from '../redis/redis-plugin.ts';
import { SessionCipher, SessionEncryptionKeysSchema } from '../sessions/session-cipher.ts';
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

/** A fleet's Redis as an instance with these SESSION_ENCRYPTION_KEYS sees it, under a prefix of its own. */
export function sessionsRedis(client: Redis, keys: string, prefix: string): SharedRedis {
  return {
    client,
    cipher: new SessionCipher(SessionEncryptionKeysSchema.parse(keys)),
    instanceId: randomUUID(),
    key: (...parts) => `${prefix}${parts.join(':')}`,
    subscriber: () => {
      throw new Error('the session store subscribes to nothing');
    },
    // A single Redis, as REDIS_URL gives: no replica to wait for.
    replicated: () => Promise.resolve(),
  };
}
