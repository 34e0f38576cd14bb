import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SharedRedis } from '../redis/redis-plugin.ts';
import { RedisServerProcess } from '../test-support/redis-server-process.ts';
import { sampleLoginTransaction, sampleSession, sessionsRedis } from '../test-support/session-samples.ts';
import type { StoredSession } from './session-store.ts';
import { RedisSessionStore, sessionKey } from './session-store.redis.ts';

const logger = pino({ level: 'silent' });
const KEY_1 = `k1:${Buffer.alloc(32, 1).toString('base64')}`;
const KEY_2 = `k2:${Buffer.alloc(32, 2).toString('base64')}`;
const IDLE_MS = 60_000;

let server: RedisServerProcess;
let client: Redis;
let prefix: string;

beforeAll(async () => {
  server = await RedisServerProcess.start();
});

afterAll(async () => {
  await server?.stop();
});

beforeEach(async () => {
  client = await server.bffClient(logger);
  prefix = `session-names-${randomUUID()}:`;
});

afterEach(() => {
  client.disconnect();
});

/** The fleet's Redis as an instance with these SESSION_ENCRYPTION_KEYS sees it. */
const sharedRedis = (keys: string): SharedRedis => sessionsRedis(client, keys, prefix);

function storeOn(redis: SharedRedis): RedisSessionStore {
  return new RedisSessionStore({ redis, idleTimeoutMs: IDLE_MS, absoluteLifetimeMs: 12 * 60 * 60_000 });
}

/** A traveler's session, live for an hour, under an identity session of its own. */
const travelerSession = (): StoredSession =>
  sampleSession({ absoluteExpiresAt: Date.now() + 60 * 60_000, identitySessionId: `sid-${randomUUID()}` });

/** A session as versions that named sessions by their id wrote it: the cookie value in every name. */
async function storeByItsId(redis: SharedRedis, session: StoredSession): Promise<void> {
  const key = redis.key('session', session.id);
  const deadline = Math.min(session.absoluteExpiresAt, session.lastSeenAt + IDLE_MS);
  await client
    .multi()
    .hset(key, {
      data: redis.cipher.seal(JSON.stringify(session), key),
      lastSeenAt: session.lastSeenAt,
      absoluteExpiresAt: session.absoluteExpiresAt,
    })
    .pexpireat(key, deadline + 10 * 60_000)
    .zadd(redis.key('session-deadlines'), deadline, session.id)
    .sadd(redis.key('sessions-by-traveler', session.travelerId ?? ''), session.id)
    .sadd(redis.key('sessions-by-sid', session.identitySessionId ?? ''), session.id)
    .exec();
}

/** What holds the session's id, or its name, in the store's keys and members. */
async function namesHolding(redis: SharedRedis, session: StoredSession) {
  const keys = await client.keys(`${prefix}*`);
  const members = [
    ...(await client.zrange(redis.key('session-deadlines'), '0', '-1')),
    ...(await client.smembers(redis.key('sessions-by-traveler', session.travelerId ?? ''))),
    ...(await client.smembers(redis.key('sessions-by-sid', session.identitySessionId ?? ''))),
  ];
  const name = redis.cipher.nameOf(session.id);
  return {
    byId: [...keys, ...members].filter((entry) => entry.includes(session.id)),
    byName: { keys: keys.filter((key) => key.endsWith(name)), members: members.filter((m) => m === name) },
  };
}

describe('session names in Redis', () => {
  it('moves a session kept under its id to its keyed-hash name when it is first read, once', async () => {
    const redis = sharedRedis(KEY_1);
    const session = travelerSession();
    await storeByItsId(redis, session);
    const store = storeOn(redis);

    expect(await store.get(session.id)).toEqual(session);
    const after = await namesHolding(redis, session);
    expect(after.byId).toEqual([]);
    // Under its name in the deadlines and both indexes.
    const name = redis.cipher.nameOf(session.id);
    expect(after.byName).toEqual({ keys: [sessionKey(redis, session.id)], members: [name, name, name] });
    // Its expiry came along; the session keeps working as any other.
    expect(await client.pttl(sessionKey(redis, session.id))).toBeGreaterThan(0);
    expect(await store.get(session.id)).toEqual(session);
    expect((await store.findBySid(session.identitySessionId ?? '')).map((found) => found.id)).toEqual([
      session.id,
    ]);
    expect(await store.delete(session.id)).toBe(true);
    expect(await client.keys(`${prefix}session:*`)).toEqual([]);
  });

  it('finds a session still kept under its id through the back-channel indexes and the sweep', async () => {
    const redis = sharedRedis(KEY_1);
    const store = storeOn(redis);
    const bySid = travelerSession();
    const expired = { ...travelerSession(), lastSeenAt: Date.now() - 2 * IDLE_MS };
    await storeByItsId(redis, bySid);
    await storeByItsId(redis, expired);

    expect((await store.findBySid(bySid.identitySessionId ?? '')).map((found) => found.id)).toEqual([
      bySid.id,
    ]);
    expect((await namesHolding(redis, bySid)).byId).toEqual([]);
    expect(await store.findExpired(Date.now())).toEqual([expired.id]);
    expect(await store.delete(expired.id)).toBe(true);
    expect((await namesHolding(redis, expired)).byId).toEqual([]);
  });

  it('moves a session to the name its new sealing key gives it, and a write leaves no former name', async () => {
    const before = sharedRedis(KEY_1);
    const after = sharedRedis(`${KEY_2},${KEY_1}`);
    const [read, written] = [travelerSession(), travelerSession()];
    await storeOn(before).set(read);
    await storeOn(before).set(written);

    expect(await storeOn(after).get(read.id)).toEqual(read);
    expect(await client.exists(sessionKey(before, read.id))).toBe(0);
    expect(await client.hget(sessionKey(after, read.id), 'data')).toMatch(/^v1\.k2\./);

    await storeOn(after).set({ ...written, accessToken: 'access-2' });
    expect(await client.exists(sessionKey(before, written.id))).toBe(0);
    expect(await client.zscore(before.key('session-deadlines'), before.cipher.nameOf(written.id))).toBeNull();
    expect((await storeOn(after).get(written.id))?.accessToken).toBe('access-2');
  });

  it('completes a sign-in whose login transaction was kept under its id', async () => {
    const redis = sharedRedis(KEY_1);
    const transaction = sampleLoginTransaction();
    const key = redis.key('login', transaction.id);
    await client.set(key, redis.cipher.seal(JSON.stringify(transaction), key), 'PXAT', transaction.expiresAt);
    expect(await storeOn(redis).takeLoginTransaction(transaction.id)).toEqual(transaction);
    expect(await client.exists(key)).toBe(0);
  });
});
