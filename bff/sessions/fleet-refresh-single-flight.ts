import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { withRedis } from '../redis/redis-client.ts';
import type { SharedRedis } from '../redis/redis-plugin.ts';
import { bffMetrics } from '../observability/bff-metrics.ts';

/** Runs `refresh` for a session; resolves with the session's access token. */
export type RefreshSingleFlight = (sessionId: string, refresh: () => Promise<string>) => Promise<string>;

/** How long the outcome of a refresh stays readable for the instances that waited for it. */
const RESULT_TTL_MS = 10_000;
const POLL_MS = 25;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

interface RefreshResult {
  lease: string;
  accessToken: string;
}

/**
 * Token refresh single-flight across the fleet. The identity platform rotates refresh tokens, so two
 * instances refreshing one session at once would end it (the second use of the old refresh token is a
 * replay). The instance that takes the session's lock (SET NX PX, a short lease) refreshes and leaves
 * the new access token, sealed, under a key named after its lease; the others wait for exactly that
 * result. A lock that lapses without a result (the holder died or failed) lets the next one try, and
 * `refresh` re-reads the session first, so it never refreshes what was just refreshed.
 */
export function fleetRefreshSingleFlight(redis: SharedRedis, lockMs: number): RefreshSingleFlight {
  const { client, cipher } = redis;
  return async (sessionId, refresh) => {
    // Named by the session's keyed hash, never its id (the browser's cookie).
    const name = cipher.nameOf(sessionId);
    const lockKey = redis.key('refresh-lock', name);
    const resultKey = redis.key('refresh-result', name);
    const giveUpAt = Date.now() + 2 * lockMs;
    for (;;) {
      const lease = randomUUID();
      const acquired = await withRedis(() => client.set(lockKey, lease, 'PX', lockMs, 'NX'));
      if (acquired === 'OK') {
        try {
          const accessToken = await refresh();
          const result: RefreshResult = { lease, accessToken };
          await withRedis(() =>
            client.set(resultKey, cipher.seal(JSON.stringify(result), resultKey), 'PX', RESULT_TTL_MS),
          );
          return accessToken;
        } finally {
          await client.eval(RELEASE_SCRIPT, 1, lockKey, lease).catch(() => undefined);
        }
      }
      const holder = await withRedis(() => client.get(lockKey));
      if (holder === null) continue;
      bffMetrics().sessionRefreshJoins.add(1, { scope: 'fleet' });
      while (Date.now() < giveUpAt) {
        await sleep(POLL_MS);
        const [sealed, current] = await withRedis(() => client.mget(resultKey, lockKey));
        const opened = sealed ? cipher.open(sealed, resultKey) : undefined;
        if (opened !== undefined) {
          const result = JSON.parse(opened) as RefreshResult;
          if (result.lease === holder) return result.accessToken;
        }
        if (current !== holder) break;
      }
      if (Date.now() >= giveUpAt) return refresh();
    }
  };
}
