import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient, waitForRedis } from '../bff/redis/redis-client.ts';
import { fleetRedis } from './fleet-redis-config.ts';
import { freePort, ServiceGroup } from './service-group.ts';

/** The fleet's redis-server, started from the configuration `npm run start:fleet` writes. */
describe("the fleet's Redis", () => {
  let dir: string;
  const server = new ServiceGroup(path.resolve(import.meta.dirname, '..'), () => undefined);
  let redis: ReturnType<typeof fleetRedis>;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-redis-'));
    port = await freePort();
    // A password with characters a URL must encode.
    redis = fleetRedis(port, 'p@ss/word:with%signs');
    const config = path.join(dir, 'redis.conf');
    await writeFile(config, redis.config, { mode: 0o600 });
    await server.start({ name: 'redis', command: 'redis-server', args: [config], port, env: {} });
  });

  afterAll(async () => {
    await server.stopAll();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a client without the password', async () => {
    const stranger = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
    stranger.on('error', () => undefined);
    try {
      await stranger.connect().catch(() => undefined);
      await expect(stranger.set('wayfare:probe', '1')).rejects.toThrow(/NOAUTH/);
    } finally {
      stranger.disconnect();
    }
  });

  it('serves an instance with the REDIS_URL it is given, on its own keys and channels only', async () => {
    expect(redis.url).not.toContain('p@ss/word');
    const client = createRedisClient({
      url: redis.url,
      logger: pino({ level: 'silent' }),
      commandTimeoutMs: 5_000,
    });
    try {
      expect(await waitForRedis(client, 10_000)).toBe(true);
      expect(await client.set('wayfare:probe', '1')).toBe('OK');
      expect(await client.eval("return redis.call('INCR', KEYS[1])", 1, 'wayfare-bff-rate-limit:probe')).toBe(
        1,
      );
      expect(await client.publish('wayfare:hub-control', 'probe')).toBe(0);
      // A session write waits for a replica under Sentinel (none here).
      expect(await client.wait(0, 10)).toBe(0);
      await expect(client.set('elsewhere', '1')).rejects.toThrow(/NOPERM/);
      await expect(client.flushall()).rejects.toThrow(/NOPERM/);
    } finally {
      client.disconnect();
    }
  });
});
