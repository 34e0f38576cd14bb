import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askRedis, RedisServerProcess } from '../test-support/redis-server-process.ts';
import { createRedisClient, waitForRedis } from './redis-client.ts';

const COMMAND_TIMEOUT_MS = 200;

/** Blocks this process's event loop, as a long synchronous task or a starved CPU does. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: no timer, no socket is read meanwhile.
  }
}

describe("the BFF's Redis command timeout", () => {
  let redis: RedisServerProcess;
  let client: ReturnType<typeof createRedisClient>;

  beforeAll(async () => {
    redis = await RedisServerProcess.start();
    client = createRedisClient({
      url: redis.url,
      logger: pino({ enabled: false }),
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
    });
    expect(await waitForRedis(client, 10_000)).toBe(true);
  });

  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('takes the answer Redis gave in time although this process stalled past the timeout', async () => {
    const answer = client.ping();
    stall(3 * COMMAND_TIMEOUT_MS);
    await expect(answer).resolves.toBe('PONG');
  });

  it('fails a command Redis does not answer within the timeout', async () => {
    // Every other client's commands wait, far longer than the timeout.
    await askRedis(redis.port, (other) => other.call('CLIENT', 'PAUSE', '10000', 'ALL'));
    await expect(client.get('wayfare:test')).rejects.toThrow('Command timed out');
  });
});
