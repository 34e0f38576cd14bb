import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../bff/config.ts';
import { createRedisClient, waitForRedis } from '../bff/redis/redis-client.ts';
import { redisTargetOf } from '../bff/redis/redis-target.ts';
import { waitFor } from '../bff/test-support/redis-server-process.ts';
import {
  FLEET_PRIMARY_NAME,
  fleetRedis,
  type FleetRedis,
  type FleetRedisFile,
  overcommitAdvice,
} from './fleet-redis-config.ts';
import { freePort, ServiceGroup } from './service-group.ts';

const root = path.resolve(import.meta.dirname, '..');
// A password with characters a URL would have to encode.
const BFF_PASSWORD = 'p@ss/word:with%signs';

/** Writes the configuration files of the fleet's Redis into `dir`, as `npm run start:fleet` does. */
async function writeFleetRedis(dir: string, downAfterMs: number): Promise<FleetRedis> {
  const ports = {
    primary: await freePort(),
    replica: await freePort(),
    sentinels: [await freePort(), await freePort(), await freePort()],
  };
  const redis = fleetRedis((name) => path.join(dir, name), ports, {
    downAfterMs,
    passwords: { bff: BFF_PASSWORD },
  });
  for (const file of redis.files) {
    await mkdir(path.join(dir, file.name), { mode: 0o700 });
    await writeFile(path.join(dir, `${file.name}.conf`), file.config, { mode: 0o600 });
  }
  return redis;
}

function startFile(group: ServiceGroup, dir: string, file: FleetRedisFile): Promise<void> {
  return group.start({
    name: file.name,
    command: file.sentinel ? 'redis-sentinel' : 'redis-server',
    args: [path.join(dir, `${file.name}.conf`)],
    port: file.port,
    env: {},
  });
}

/** A client with no credentials, giving up at once. */
function stranger(port: number): Redis {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  return client;
}

/** The fleet's Redis: a primary, a replica and three Sentinels, from the files `npm run start:fleet` writes. */
describe("the fleet's Redis", () => {
  let dir: string;
  const group = new ServiceGroup(root, () => undefined);
  let redis: FleetRedis;
  let bff: Redis;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-redis-'));
    redis = await writeFleetRedis(dir, 1000);
    for (const file of redis.files) await startFile(group, dir, file);
    // The instances' connection, from the settings the fleet gives them.
    const config = loadConfig(redis.env);
    bff = createRedisClient({
      ...redisTargetOf(config)!,
      logger: pino({ level: 'silent' }),
      commandTimeoutMs: 5_000,
    });
    expect(await waitForRedis(bff, 10_000)).toBe(true);
  }, 60_000);

  afterAll(async () => {
    bff?.disconnect();
    await group.stopAll();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a client without the password, on the data nodes and on the Sentinels', async () => {
    const [primary, , sentinel] = redis.files as [FleetRedisFile, FleetRedisFile, FleetRedisFile];
    for (const [port, attempt] of [
      [primary.port, (client: Redis) => client.set('wayfare:probe', '1')],
      [sentinel.port, (client: Redis) => client.call('SENTINEL', 'MASTERS')],
    ] as const) {
      const client = stranger(port);
      try {
        await client.connect().catch(() => undefined);
        await expect(attempt(client)).rejects.toThrow(/NOAUTH/);
      } finally {
        client.disconnect();
      }
    }
    expect(JSON.stringify(redis.env)).not.toContain('redis://');
    // A data node restarted by the supervisor comes back after the failover window, as a replica.
    expect(primary.minRestartDelayMs).toBeGreaterThan(1000);
  });

  it('serves an instance through the Sentinels, on its own keys and channels only, with a replica holding its writes', async () => {
    expect(await bff.set('wayfare:probe', '1')).toBe('OK');
    expect(await bff.eval("return redis.call('INCR', KEYS[1])", 1, 'wayfare-bff-rate-limit:probe')).toBe(1);
    expect(await bff.publish('wayfare:hub-control', 'probe')).toBe(0);
    await expect(bff.set('elsewhere', '1')).rejects.toThrow(/NOPERM/);
    await expect(bff.flushall()).rejects.toThrow(/NOPERM/);
    // The replica authenticated as its replication user and keeps up: a session write waits for it.
    await waitFor(async () => (await bff.wait(1, 1000)) === 1, 'the replica to acknowledge a write');
  });

  it('fails over to the replica when the primary is killed, with the Sentinels and replication on their own users', async () => {
    await bff.set('wayfare:before-failover', 'kept');
    expect(await bff.wait(1, 2000)).toBe(1);
    const [primary, replica, sentinel] = redis.files as [FleetRedisFile, FleetRedisFile, FleetRedisFile];
    process.kill(group.pid(primary.name) as number, 'SIGKILL');

    const asker = new Redis({
      host: '127.0.0.1',
      port: sentinel.port,
      password: redis.env.REDIS_SENTINEL_PASSWORD,
    });
    asker.on('error', () => undefined);
    try {
      await waitFor(async () => {
        const [, port] = (await asker.call(
          'SENTINEL',
          'GET-MASTER-ADDR-BY-NAME',
          FLEET_PRIMARY_NAME,
        )) as string[];
        return port === String(replica.port);
      }, 'the Sentinels to promote the replica');
    } finally {
      asker.disconnect();
    }
    await waitFor(
      async () => (await bff.set('wayfare:after-failover', '1')) === 'OK',
      'a write on the new primary',
    );
    expect(await bff.get('wayfare:before-failover')).toBe('kept');
  }, 30_000);
});

describe("the fleet's Redis data node", () => {
  it('keeps what it acknowledged across a crash and a restart (append-only file)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-redis-aof-'));
    const group = new ServiceGroup(root, () => undefined);
    try {
      const primary = (await writeFleetRedis(dir, 1000)).files[0] as FleetRedisFile;
      const connect = () => {
        const client = new Redis({
          host: '127.0.0.1',
          port: primary.port,
          username: 'wayfare',
          password: BFF_PASSWORD,
        });
        client.on('error', () => undefined);
        return client;
      };
      await startFile(group, dir, primary);
      const before = connect();
      await before.set('wayfare:session', 'sealed');
      before.disconnect();

      const pid = group.pid(primary.name) as number;
      process.kill(pid, 'SIGKILL');
      await waitFor(() => group.pid(primary.name) === undefined, 'redis-server to exit');
      await startFile(group, dir, primary);

      const after = connect();
      try {
        expect(await after.get('wayfare:session')).toBe('sealed');
      } finally {
        after.disconnect();
      }
    } finally {
      await group.stopAll();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the advice on memory overcommit', () => {
  it('explains Redis’s warning when the host does not overcommit, and says nothing when it does', () => {
    expect(overcommitAdvice('0\n')).toMatch(
      /memory overcommit is off \(vm\.overcommit_memory=0\).*sysctl vm\.overcommit_memory=1/,
    );
    expect(overcommitAdvice('2')).toContain('vm.overcommit_memory=2');
    expect(overcommitAdvice('1\n')).toBeNull();
    expect(overcommitAdvice(undefined)).toBeNull();
  });
});
