import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisServerProcess } from '../test-support/redis-server-process.ts';
import { TEST_SESSION_ENCRYPTION_KEYS } from '../test-support/bff-fleet.ts';
import { sampleLoginTransaction, sampleSession, sessionsRedis } from '../test-support/session-samples.ts';
import { SessionCipher } from './session-cipher.ts';
import { loadSessionKeys } from './session-keys.ts';
import { newSessionId } from './session-plugin.ts';
import type { SessionStore } from './session-store.ts';
import { RedisSessionStore } from './session-store.redis.ts';
import { SqliteSessionStore } from './session-store.sqlite.ts';

const logger = pino({ level: 'silent' });
/** The idle timeout every store of the suite runs with. */
const IDLE_MS = 5_000;

let redisServer: RedisServerProcess | undefined;

/** A store under test and what removes it. */
interface OpenedStore {
  store: SessionStore;
  close(): Promise<void>;
}

/** The two session stores behind one contract: the embedded SQLite one and the fleet's Redis one. */
const STORES: { name: string; open: () => Promise<OpenedStore> }[] = [
  {
    name: 'SQLite',
    open: async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-store-'));
      const cipher = new SessionCipher(loadSessionKeys({ configured: undefined, dataDir }));
      const store = new SqliteSessionStore(dataDir, cipher);
      return {
        store,
        async close() {
          await store.close();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'Redis',
    open: async () => {
      redisServer ??= await RedisServerProcess.start();
      const client: Redis = await redisServer.bffClient(logger);
      const prefix = `session-suite-${randomUUID()}:`;
      const redis = sessionsRedis(client, TEST_SESSION_ENCRYPTION_KEYS, prefix);
      const store = new RedisSessionStore({ redis, idleTimeoutMs: IDLE_MS, absoluteLifetimeMs: 60_000 });
      return {
        store,
        async close() {
          await store.close();
          client.disconnect();
        },
      };
    },
  },
];

const session = sampleSession;

afterAll(async () => {
  await redisServer?.stop();
});

describe.each(STORES)('the $name session store', ({ open }) => {
  let opened: OpenedStore;
  let store: SessionStore;

  beforeEach(async () => {
    opened = await open();
    store = opened.store;
  });

  afterEach(async () => {
    await opened.close();
  });

  it('gives back the session it was given, and nothing for an unknown id', async () => {
    const stored = session();
    await store.set(stored);
    expect(await store.get(stored.id)).toEqual(stored);
    expect(await store.get(newSessionId())).toBeUndefined();
  });

  it('replaces a whole session', async () => {
    const stored = session();
    await store.set(stored);
    const refreshed = { ...stored, accessToken: 'access-2', refreshToken: 'refresh-2' };
    await store.set(refreshed);
    expect(await store.get(stored.id)).toEqual(refreshed);
  });

  it('finds sessions by identity session id and by traveler', async () => {
    const a1 = session();
    const a2 = session({ identitySessionId: 'sid-a2' });
    const b = session({ travelerId: 'traveler-b', identitySessionId: 'sid-b' });
    for (const entry of [a1, a2, b]) await store.set(entry);
    expect((await store.findBySid('sid-a')).map((entry) => entry.id)).toEqual([a1.id]);
    expect((await store.findBySubject('traveler-a')).map((entry) => entry.id).sort()).toEqual(
      [a1.id, a2.id].sort(),
    );
    expect(await store.findBySid('unknown')).toEqual([]);
    await store.delete(a1.id);
    expect(await store.findBySid('sid-a')).toEqual([]);
    expect((await store.findBySubject('traveler-a')).map((entry) => entry.id)).toEqual([a2.id]);
  });

  it('reports a delete once', async () => {
    const stored = session();
    await store.set(stored);
    expect(await store.delete(stored.id)).toBe(true);
    expect(await store.delete(stored.id)).toBe(false);
    expect(await store.get(stored.id)).toBeUndefined();
  });

  it('moves the idle clock forward only', async () => {
    const stored = session();
    await store.set(stored);
    await store.touch(stored.id, stored.lastSeenAt + 1000);
    await store.touch(stored.id, stored.lastSeenAt - 5000);
    expect((await store.get(stored.id))?.lastSeenAt).toBe(stored.lastSeenAt + 1000);
  });

  it('lists idle and past-lifetime sessions as expired, by id', async () => {
    const now = Date.now();
    const idle = session({ lastSeenAt: now - 10_000 });
    const old = session({ absoluteExpiresAt: now - 1 });
    const live = session();
    for (const entry of [idle, old, live]) await store.set(entry);
    expect((await store.findExpired(now, IDLE_MS)).sort()).toEqual([idle.id, old.id].sort());
  });

  it('hands a login transaction out once, and never after it expired', async () => {
    const transaction = sampleLoginTransaction();
    await store.saveLoginTransaction(transaction);
    expect(await store.takeLoginTransaction(transaction.id)).toEqual(transaction);
    expect(await store.takeLoginTransaction(transaction.id)).toBeUndefined();
    const old = { ...transaction, id: newSessionId(), expiresAt: Date.now() - 1 };
    await store.saveLoginTransaction(old);
    expect(await store.takeLoginTransaction(old.id)).toBeUndefined();
  });

  it('remembers logout token ids to refuse replays', async () => {
    expect(await store.rememberLogoutTokenId('jti-1', Date.now() + 60_000)).toBe(true);
    expect(await store.rememberLogoutTokenId('jti-1', Date.now() + 60_000)).toBe(false);
    expect(await store.rememberLogoutTokenId('jti-2', Date.now() + 60_000)).toBe(true);
  });
});
