import type { DeliveryLedger } from './delivery-ledger.ts';
import { withRedis } from '../redis/redis-client.ts';
import type { SharedRedis } from '../redis/redis-plugin.ts';

export interface RedisDeliveryLedgerOptions {
  /** Ids remembered per traveler (the most recent ones). */
  idsPerTraveler: number;
  /** A traveler's ledger is forgotten after this long without a live delivery. */
  ttlMs: number;
}

/**
 * The delivery ledger shared by the fleet: a sorted set per traveler of the notification ids shown live
 * to a visible app (scored by time, trimmed to the newest), so that the push decided on one instance
 * knows what a browser on another instance already showed.
 */
export class RedisDeliveryLedger implements DeliveryLedger {
  readonly #redis: SharedRedis;
  readonly #options: RedisDeliveryLedgerOptions;

  constructor(redis: SharedRedis, options: RedisDeliveryLedgerOptions) {
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

  #key(travelerId: string): string {
    return this.#redis.key('shown-live', travelerId);
  }
}
