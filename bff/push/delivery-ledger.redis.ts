import { randomUUID } from 'node:crypto';
import type { DeliveryLedger, PushDecisionClaim } from './delivery-ledger.ts';
import { withRedis } from '../redis/redis-client.ts';
import type { SharedRedis } from '../redis/redis-plugin.ts';

export interface RedisDeliveryLedgerOptions {
  /** Ids remembered per traveler (the most recent ones). */
  idsPerTraveler: number;
  /** A traveler's ledger is forgotten after this long without a live delivery. */
  ttlMs: number;
  /** A push decision taken is remembered this long, past every retry of the push channel. */
  pushDecisionTtlMs: number;
}

/** The claim's value is its holder's token; a decision taken overwrites it with `decided`. */
const DECIDED = 'decided';

/** Settles a claim only while its holder still has it (a lapsed claim may be another attempt's now). */
const SETTLE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == 'decided' then
  redis.call('SET', KEYS[1], '${DECIDED}', 'PX', ARGV[3])
else
  redis.call('DEL', KEYS[1])
end
return 1
`;

/**
 * The delivery ledger shared by the fleet: a sorted set per traveler of the notification ids shown live
 * to a visible app (scored by time, trimmed to the newest), so that the push decided on one instance
 * knows what a browser on another instance already showed; and a key per push decision (SET NX with a
 * lease while it is taken, `decided` once it is), so that a retry of the push channel reaching another
 * instance is a repeat there too.
 */
export class RedisDeliveryLedger implements DeliveryLedger {
  readonly #redis: Pick<SharedRedis, 'client' | 'key'>;
  readonly #options: RedisDeliveryLedgerOptions;

  constructor(redis: Pick<SharedRedis, 'client' | 'key'>, options: RedisDeliveryLedgerOptions) {
    this.#redis = redis;
    this.#options = options;
  }

  recordShownLive(travelerId: string, notificationId: string): Promise<void> {
    const key = this.#key(travelerId);
    return withRedis(async () => {
      await this.#redis.client
        .multi()
        .zadd(key, Date.now(), notificationId)
        .zremrangebyrank(key, 0, -this.#options.idsPerTraveler - 1)
        .pexpire(key, this.#options.ttlMs)
        .exec();
    });
  }

  /** Fails with 503 RETRY_LATER while Redis is unreachable, so the travel API retries the push later. */
  wasShownLive(travelerId: string, notificationId: string): Promise<boolean> {
    return withRedis(
      async () => (await this.#redis.client.zscore(this.#key(travelerId), notificationId)) !== null,
    );
  }

  claimPushDecision(travelerId: string, notificationId: string, leaseMs: number): Promise<PushDecisionClaim> {
    const key = this.#decisionKey(travelerId, notificationId);
    const token = randomUUID();
    return withRedis(async () => {
      if ((await this.#redis.client.set(key, token, 'PX', leaseMs, 'NX')) === 'OK') {
        return { state: 'claimed', token };
      }
      // Taken, or under way (also when the claim lapsed just now: the next attempt will find out).
      return (await this.#redis.client.get(key)) === DECIDED ? { state: 'decided' } : { state: 'deciding' };
    });
  }

  settlePushDecision(
    travelerId: string,
    notificationId: string,
    token: string,
    settlement: 'decided' | 'released',
  ): Promise<void> {
    const key = this.#decisionKey(travelerId, notificationId);
    return withRedis(async () => {
      await this.#redis.client.eval(
        SETTLE_SCRIPT,
        1,
        key,
        token,
        settlement,
        String(this.#options.pushDecisionTtlMs),
      );
    });
  }

  #decisionKey(travelerId: string, notificationId: string): string {
    return this.#redis.key('push-decision', travelerId, notificationId);
  }

  #key(travelerId: string): string {
    return this.#redis.key('shown-live', travelerId);
  }
}
