import type { PushSubscriptionStore, StoredPushSubscription } from './push-subscription-store.ts';
import { withRedis } from '../redis/redis-client.ts';
import type { SharedRedis } from '../redis/redis-plugin.ts';

/** Moves an endpoint to a traveler: an endpoint belongs to one traveler at a time. */
const SAVE_SCRIPT = `
local previous = redis.call('HGET', KEYS[1], ARGV[1])
if previous and previous ~= ARGV[2] then redis.call('HDEL', ARGV[4] .. previous, ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local existing = redis.call('HGET', KEYS[2], ARGV[1])
local order
if existing then order = cjson.decode(existing).order else order = redis.call('INCR', KEYS[3]) end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode({ keys = cjson.decode(ARGV[3]), order = order }))
return 1
`;

/** Removes an endpoint: of one traveler (ARGV[2] set) or whoever holds it. */
const REMOVE_SCRIPT = `
local owner = redis.call('HGET', KEYS[1], ARGV[1])
if not owner or (ARGV[2] ~= '' and owner ~= ARGV[2]) then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return redis.call('HDEL', ARGV[3] .. owner, ARGV[1])
`;

interface StoredEntry {
  keys: { p256dh: string; auth: string };
  /** Subscription order across the fleet (oldest first). */
  order: number;
}

/**
 * Push subscriptions shared by the fleet: a hash per traveler (endpoint -> keys and subscription order) and
 * one hash of endpoint -> traveler, kept consistent by scripts.
 */
export class RedisPushSubscriptionStore implements PushSubscriptionStore {
  readonly #redis: SharedRedis;

  constructor(redis: SharedRedis) {
    this.#redis = redis;
  }

  save(travelerId: string, subscription: StoredPushSubscription): Promise<void> {
    return withRedis(async () => {
      await this.#redis.client.eval(
        SAVE_SCRIPT,
        3,
        this.#ownersKey,
        this.#travelerKey(travelerId),
        this.#redis.key('push-subscription-order'),
        subscription.endpoint,
        travelerId,
        JSON.stringify(subscription.keys),
        this.#travelerKey(''),
      );
    });
  }

  remove(travelerId: string, endpoint: string): Promise<boolean> {
    return withRedis(async () => {
      const removed = await this.#redis.client.eval(
        REMOVE_SCRIPT,
        1,
        this.#ownersKey,
        endpoint,
        travelerId,
        this.#travelerKey(''),
      );
      return removed === 1;
    });
  }

  removeEndpoint(endpoint: string): Promise<void> {
    return withRedis(async () => {
      await this.#redis.client.eval(REMOVE_SCRIPT, 1, this.#ownersKey, endpoint, '', this.#travelerKey(''));
    });
  }

  /** Oldest first, like the embedded store. */
  list(travelerId: string): Promise<StoredPushSubscription[]> {
    return withRedis(async () => {
      const entries = await this.#redis.client.hgetall(this.#travelerKey(travelerId));
      return Object.entries(entries)
        .map(([endpoint, value]) => ({ endpoint, entry: JSON.parse(value) as StoredEntry }))
        .sort((a, b) => a.entry.order - b.entry.order)
        .map(({ endpoint, entry }) => ({ endpoint, keys: entry.keys }));
    });
  }

  count(travelerId: string): Promise<number> {
    return withRedis(() => this.#redis.client.hlen(this.#travelerKey(travelerId)));
  }

  /** The connection belongs to the app. */
  close(): void {}

  get #ownersKey(): string {
    return this.#redis.key('push-endpoint-owners');
  }

  #travelerKey(travelerId: string): string {
    return this.#redis.key('push-subscriptions', travelerId);
  }
}
