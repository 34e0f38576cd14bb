import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisServerProcess } from '../test-support/redis-server-process.ts';
import { TEST_SESSION_ENCRYPTION_KEYS } from '../test-support/bff-fleet.ts';
import { sessionsRedis } from '../test-support/session-samples.ts';
import { feedTokenHash, newFeedToken, type CalendarFeedStore } from './calendar-feed-store.ts';
import { RedisCalendarFeedStore } from './calendar-feed-store.redis.ts';
import { SqliteCalendarFeedStore } from './calendar-feed-store.sqlite.ts';

const logger = pino({ level: 'silent' });
let redisServer: RedisServerProcess | undefined;

interface OpenedStore {
  store: CalendarFeedStore;
  /** Every byte the store wrote, to check that no token is among them. */
  written(): Promise<string>;
  close(): Promise<void>;
}

/** The two calendar feed stores behind one contract: the embedded SQLite one and the fleet's Redis one. */
const STORES: { name: string; open: () => Promise<OpenedStore> }[] = [
  {
    name: 'SQLite',
    open: async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-calendar-'));
      const store = new SqliteCalendarFeedStore(dataDir);
      return {
        store,
        written: async () => {
          store.close();
          return (await readFile(path.join(dataDir, 'calendar-feeds.sqlite'))).toString('latin1');
        },
        async close() {
          store.close();
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
      const prefix = `calendar-suite-${randomUUID()}:`;
      const store = new RedisCalendarFeedStore(sessionsRedis(client, TEST_SESSION_ENCRYPTION_KEYS, prefix));
      return {
        store,
        written: async () => {
          const keys = await client.keys(`${prefix}*`);
          const values = await Promise.all(keys.map((key) => client.hgetall(key)));
          return JSON.stringify([keys, values]);
        },
        async close() {
          client.disconnect();
        },
      };
    },
  },
];

afterAll(async () => {
  await redisServer?.stop();
});

describe.each(STORES)('the $name calendar feed store', ({ open }) => {
  let opened: OpenedStore;
  let store: CalendarFeedStore;
  const traveler = randomUUID();

  beforeEach(async () => {
    opened = await open();
    store = opened.store;
  });

  afterEach(async () => {
    await opened.close();
  });

  it('finds a feed by its token hash and keeps no token', async () => {
    const token = newFeedToken();
    await store.enable(traveler, feedTokenHash(token), '2026-11-26T08:00:00.000Z');
    expect(await store.findByTokenHash(feedTokenHash(token))).toEqual({
      travelerId: traveler,
      createdAt: '2026-11-26T08:00:00.000Z',
    });
    expect(await store.findByTraveler(traveler)).toEqual({
      travelerId: traveler,
      createdAt: '2026-11-26T08:00:00.000Z',
    });
    expect(await opened.written()).not.toContain(token);
  });

  it('revokes the earlier token when the traveler rotates, and every token when they turn it off', async () => {
    const first = feedTokenHash(newFeedToken());
    const second = feedTokenHash(newFeedToken());
    await store.enable(traveler, first, '2026-11-26T08:00:00.000Z');
    await store.enable(traveler, second, '2026-11-26T09:00:00.000Z');
    expect(await store.findByTokenHash(first)).toBeUndefined();
    expect((await store.findByTokenHash(second))?.travelerId).toBe(traveler);
    expect(await store.disable(traveler)).toBe(true);
    expect(await store.disable(traveler)).toBe(false);
    expect(await store.findByTokenHash(second)).toBeUndefined();
    expect(await store.findByTraveler(traveler)).toBeUndefined();
  });

  it('keeps one feed per traveler apart from another traveler', async () => {
    const other = randomUUID();
    const mine = feedTokenHash(newFeedToken());
    const theirs = feedTokenHash(newFeedToken());
    await store.enable(traveler, mine, '2026-11-26T08:00:00.000Z');
    await store.enable(other, theirs, '2026-11-26T08:00:00.000Z');
    await store.disable(other);
    expect((await store.findByTokenHash(mine))?.travelerId).toBe(traveler);
  });

  it('counts SEQUENCE up only when an event changes, per traveler', async () => {
    const first = await store.sequences(traveler, [
      { uid: 'a', fingerprint: 'one' },
      { uid: 'b', fingerprint: 'one' },
    ]);
    expect([...first]).toEqual([
      ['a', 0],
      ['b', 0],
    ]);
    await store.sequences(traveler, [{ uid: 'a', fingerprint: 'two' }]);
    const later = await store.sequences(traveler, [
      { uid: 'a', fingerprint: 'three' },
      { uid: 'b', fingerprint: 'one' },
    ]);
    expect([...later]).toEqual([
      ['a', 2],
      ['b', 0],
    ]);
    expect([...(await store.sequences(randomUUID(), [{ uid: 'a', fingerprint: 'three' }]))]).toEqual([
      ['a', 0],
    ]);
  });
});
