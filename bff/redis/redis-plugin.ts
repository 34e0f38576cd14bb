import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { ConfigError } from '../config.ts';
import { createRedisClient, createSubscriberClient, waitForRedis } from './redis-client.ts';
import { redisTargetOf } from './redis-target.ts';
import { SessionCipher } from '../sessions/session-cipher.ts';

/** How long start-up waits for Redis before serving anyway (requests answer 503 until it is reachable). */
const STARTUP_WAIT_MS = 3_000;

/** The shared state of a fleet of BFF instances: one Redis, one key prefix, one session cipher. */
export interface SharedRedis {
  readonly client: Redis;
  readonly cipher: SessionCipher;
  /** This process among the fleet (lease holder names, pub/sub origins). */
  readonly instanceId: string;
  /** A Redis key or channel name under REDIS_KEY_PREFIX. */
  key(...parts: string[]): string;
  /** The process's one pub/sub connection, opened on first use. */
  subscriber(): Redis;
  /**
   * Under Sentinel: waits (briefly) until a replica holds every write this connection made so far, so
   * that a failover right after keeps it. Resolves at once on a single Redis.
   */
  replicated(): Promise<void>;
}

/** The longest a session write waits for a replica before the request goes on without it. */
export function replicaWaitMs(commandTimeoutMs: number): number {
  return Math.min(500, Math.floor(commandTimeoutMs / 2));
}

/**
 * Decorates `app.redis`: the shared Redis when REDIS_URL or REDIS_SENTINELS is set (sessions, token
 * refresh, notification hub, delivery ledger, rate limits and push subscriptions then live there), null
 * otherwise.
 */
async function sharedRedisPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const target = redisTargetOf(config);
  if (target === undefined) {
    app.decorate('redis', null);
    return;
  }
  if (!config.SESSION_ENCRYPTION_KEYS) {
    throw new ConfigError(
      'SESSION_ENCRYPTION_KEYS is required with REDIS_URL or REDIS_SENTINELS: sessions and their tokens are encrypted in Redis',
    );
  }
  if (!config.VAPID_PUBLIC_KEY || !config.VAPID_PRIVATE_KEY) {
    throw new ConfigError(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required with REDIS_URL or REDIS_SENTINELS: every instance must sign Web Push with the key pair the browsers subscribed to',
    );
  }
  const logger = app.log.child({ component: 'redis' });
  const client = createRedisClient({ ...target, logger, commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS });
  const waitMs = replicaWaitMs(config.REDIS_COMMAND_TIMEOUT_MS);
  let unreplicated = false;
  let subscriber: Redis | undefined;
  const shared: SharedRedis = {
    client,
    cipher: new SessionCipher(config.SESSION_ENCRYPTION_KEYS),
    instanceId: randomUUID(),
    key: (...parts) => `${config.REDIS_KEY_PREFIX}${parts.join(':')}`,
    subscriber() {
      subscriber ??= createSubscriberClient(client, logger);
      return subscriber;
    },
    async replicated() {
      if ('url' in target) return;
      const acknowledged = await client.wait(1, waitMs);
      // Logged once until a replica acknowledges again: the writes meanwhile are on the primary only.
      if (acknowledged < 1 && !unreplicated) {
        logger.warn(
          { waitMs },
          'no redis replica acknowledged a session write: a failover now would lose it',
        );
      }
      unreplicated = acknowledged < 1;
    },
  };
  if (!(await waitForRedis(client, STARTUP_WAIT_MS))) {
    logger.warn('redis is not reachable yet: requests answer 503 until it is');
  }
  app.decorate('redis', shared);
  app.addHook('onClose', async () => {
    subscriber?.disconnect();
    if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
    else client.disconnect();
  });
}

export const redisPlugin = fp(sharedRedisPlugin, {
  name: 'redis',
  fastify: '5.x',
  decorators: { fastify: ['config'] },
});
export default redisPlugin;

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis of a fleet; null for a single instance on embedded storage. */
    redis: SharedRedis | null;
  }
}
