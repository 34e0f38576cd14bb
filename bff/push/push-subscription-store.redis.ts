import type { PushSubscriptionStore, StoredPushSubscription } from './push-subscription-store.ts';
import { withRedis } from '../redis/redis-client.ts';
import type { SharedRedis } from '../redis/redis-plugin.ts';

/**
 * Moves an endpoint to a traveler and the session that subscribed it: an endpoint belongs to one traveler
 * at a time. The session's set of endpoints lets its end find them (KEYS[4], expiring after any session).
 */
const SAVE_SCRIPT = `
local previous = redis.call('HGET', KEYS[1], ARGV[1])
if previous and previous ~= ARGV[2] then redis.call('HDEL', ARGV[4] .. previous, ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local existing = redis.call('HGET', KEYS[2], ARGV[1])
local order
if existing then order = cjson.decode(existing).order else order = redis.call('INCR', KEYS[3]) end
redis.call('HSET', KEYS[2], ARGV[1],
  cjson.encode({ keys = cjson.decode(ARGV[3]), order = order, session = ARGV[5] }))
redis.call('SADD', KEYS[4], ARGV[1])
redis.call('PEXPIRE', KEYS[4], ARGV[6])
return 1
`;

/** Removes the endpoints a session subscribed that still belong to it (KEYS[2], the session's set). */
const REMOVE_SESSION_SCRIPT = `
local removed = 0
for _, endpoint in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local owner = redis.call('HGET', KEYS[1], endpoint)
  if owner then
    local entry = redis.call('HGET', ARGV[2] .. owner, endpoint)
    if entry and cjson.decode(entry).session == ARGV[1] then
      redis.call('HDEL', ARGV[2] .. owner, endpoint)
      redis.call('HDEL', KEYS[1], endpoint)
      removed = removed + 1
    end
  end
end
redis.call('DEL', KEYS[2])
return removed
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
  /** The session that subscribed it (absent in entries stored before sessions were recorded). */
  session?: string;
}

/**
 * Push subscriptions shared by the fleet: a hash per traveler (endpoint -> keys, subscription order and
 * session), one hash of endpoint -> traveler, and a set of endpoints per session, kept consistent by
 * scripts.
 */
export class RedisPushSubscriptionStore implements PushSubscriptionStore {
  readonly #redis: SharedRedis;
  readonly #sessionSetTtlMs: number;

  /** `sessionLifetimeMs`: the longest a session lives; its set of endpoints is kept a day longer. */
  constructor(redis: SharedRedis, sessionLifetimeMs: number) {
    this.#redis = redis;
    this.#sessionSetTtlMs = sessionLifetimeMs + 24 * 60 * 60 * 1000;
  }

  save(travelerId: string, subscription: StoredPushSubscription & { sessionRef: string }): Promise<void> {
    return withRedis(async () => {
      await this.#redis.client.eval(
        SAVE_SCRIPT,
        4,
        this.#ownersKey,
        this.#travelerKey(travelerId),
        this.#redis.key('push-subscription-order'),
        this.#sessionKey(subscription.sessionRef),
        subscription.endpoint,
        travelerId,
        JSON.stringify(subscription.keys),
        this.#travelerKey(''),
        subscription.sessionRef,
        this.#sessionSetTtlMs,
      );
    });
  }

  removeSession(sessionRef: string): Promise<number> {
    return withRedis(async () => {
      const removed = await this.#redis.client.eval(
        REMOVE_SESSION_SCRIPT,
        2,
        this.#ownersKey,
        this.#sessionKey(sessionRef),
        sessionRef,
        this.#travelerKey(''),
      );
      return Number(removed);
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
        .map(({ endpoint, entry }) => ({
          endpoint,
          keys: entry.keys,
          ...(entry.session === undefined ? {} : { sessionRef: entry.session }),
        }));
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

  #sessionKey(sessionRef: string): string {
    return this.#redis.key('push-session-endpoints', sessionRef);
  }

  #travelerKey(travelerId: string): string {
    return this.#redis.key('push-subscriptions', travelerId);
  }
}
