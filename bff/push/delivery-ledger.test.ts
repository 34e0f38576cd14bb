import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RedisServerProcess } from '../test-support/redis-server-process.ts';
import type { DeliveryLedger } from './delivery-ledger.ts';
import { MemoryDeliveryLedger } from './delivery-ledger.memory.ts';
import { RedisDeliveryLedger } from './delivery-ledger.redis.ts';

const logger = pino({ level: 'silent' });
const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-100000000009';
let redisServer: RedisServerProcess | undefined;
let client: Redis | undefined;

/**
 * The two ledgers behind one contract. Each test's ledgers share one key space, as the instances of a
 * fleet share one Redis; `instance()` is one more instance on it.
 */
const LEDGERS: { name: string; fleet: () => () => DeliveryLedger }[] = [
  {
    name: 'in-process',
    fleet: () => {
      const ledger = new MemoryDeliveryLedger({ idsPerTraveler: 10, travelers: 10, pushDecisions: 3 });
      return () => ledger;
    },
  },
  {
    name: 'Redis',
    fleet: () => {
      const prefix = `ledger-suite-${randomUUID()}:`;
      return () => {
        if (client === undefined) throw new Error('no Redis connection for this test');
        const redis = { client, key: (...parts: string[]) => `${prefix}${parts.join(':')}` };
        return new RedisDeliveryLedger(redis, {
          idsPerTraveler: 10,
          ttlMs: 60_000,
          pushDecisionTtlMs: 60_000,
        });
      };
    },
  },
];

afterAll(async () => {
  await redisServer?.stop();
});

describe.each(LEDGERS)('the $name delivery ledger', ({ name, fleet }) => {
  beforeAll(async () => {
    if (name === 'Redis') redisServer ??= await RedisServerProcess.start();
  });

  beforeEach(async () => {
    if (name !== 'Redis' || redisServer === undefined) return;
    client = await redisServer.bffClient(logger);
  });

  afterEach(() => {
    client?.disconnect();
    client = undefined;
  });

  it('remembers what was shown live, per traveler', async () => {
    const instance = fleet();
    const [a, b] = [instance(), instance()];
    await a.recordShownLive(TRAVELER, 'n-1');
    expect(await b.wasShownLive(TRAVELER, 'n-1')).toBe(true);
    expect(await b.wasShownLive(TRAVELER, 'n-2')).toBe(false);
    expect(await b.wasShownLive('another-traveler', 'n-1')).toBe(false);
  });

  it('lets one attempt decide a push; a repeat meanwhile is told it is under way, and afterwards that it is decided', async () => {
    const instance = fleet();
    const [a, b] = [instance(), instance()];
    const claim = await a.claimPushDecision(TRAVELER, 'n-1', 60_000);
    if (claim.state !== 'claimed') throw new Error(`expected a claim, got ${claim.state}`);
    expect(await b.claimPushDecision(TRAVELER, 'n-1', 60_000)).toEqual({ state: 'deciding' });
    expect((await b.claimPushDecision(TRAVELER, 'n-2', 60_000)).state).toBe('claimed');
    expect((await b.claimPushDecision('another-traveler', 'n-1', 60_000)).state).toBe('claimed');

    await a.settlePushDecision(TRAVELER, 'n-1', claim.token, 'decided');
    expect(await b.claimPushDecision(TRAVELER, 'n-1', 60_000)).toEqual({ state: 'decided' });
    expect(await a.claimPushDecision(TRAVELER, 'n-1', 60_000)).toEqual({ state: 'decided' });
  });

  it('a released decision is taken again by the next attempt, on any instance', async () => {
    const instance = fleet();
    const [a, b] = [instance(), instance()];
    const first = await a.claimPushDecision(TRAVELER, 'n-1', 60_000);
    if (first.state !== 'claimed') throw new Error(`expected a claim, got ${first.state}`);
    await a.settlePushDecision(TRAVELER, 'n-1', first.token, 'released');
    const second = await b.claimPushDecision(TRAVELER, 'n-1', 60_000);
    expect(second.state).toBe('claimed');
  });

  it('a claim never settled lapses after its lease, and the lapsed holder cannot settle the new one', async () => {
    const instance = fleet();
    const [a, b] = [instance(), instance()];
    const lapsed = await a.claimPushDecision(TRAVELER, 'n-1', 50);
    if (lapsed.state !== 'claimed') throw new Error(`expected a claim, got ${lapsed.state}`);
    await expect.poll(async () => (await b.claimPushDecision(TRAVELER, 'n-1', 60_000)).state).toBe('claimed');

    // The first holder comes back late: its settlement changes nothing, the new attempt still decides.
    await a.settlePushDecision(TRAVELER, 'n-1', lapsed.token, 'decided');
    expect(await a.claimPushDecision(TRAVELER, 'n-1', 60_000)).toEqual({ state: 'deciding' });
  });
});

describe('the in-process delivery ledger', () => {
  it('remembers a bounded number of push decisions, forgetting the oldest first', () => {
    const ledger = new MemoryDeliveryLedger({ idsPerTraveler: 10, travelers: 10, pushDecisions: 3 });
    for (const id of ['n-1', 'n-2', 'n-3', 'n-4']) {
      const claim = ledger.claimPushDecision(TRAVELER, id, 60_000);
      if (claim.state === 'claimed') ledger.settlePushDecision(TRAVELER, id, claim.token, 'decided');
    }
    expect(ledger.claimPushDecision(TRAVELER, 'n-4', 60_000)).toEqual({ state: 'decided' });
    expect(ledger.claimPushDecision(TRAVELER, 'n-1', 60_000).state).toBe('claimed');
  });
});
