import type { LoginTransaction, SessionStore, StoredSession } from './session-store.ts';
import { withRedis } from '../redis/redis-client.ts';
import type { SharedRedis } from '../redis/redis-plugin.ts';

export interface RedisSessionStoreOptions {
  redis: SharedRedis;
  idleTimeoutMs: number;
  absoluteLifetimeMs: number;
}

/**
 * Ended sessions stay readable this long past their deadline, so that the sweep of some instance finds
 * them and tells every listener (their streams close) before Redis forgets them.
 */
const EXPIRY_GRACE_MS = 10 * 60 * 1000;

/** Moves the idle deadline forward (never back) and the key's expiry with it. */
const TOUCH_SCRIPT = `
local absolute = tonumber(redis.call('HGET', KEYS[1], 'absoluteExpiresAt'))
if not absolute then return 0 end
local last = math.max(tonumber(redis.call('HGET', KEYS[1], 'lastSeenAt')) or 0, tonumber(ARGV[1]))
local deadline = math.min(absolute, last + tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], 'lastSeenAt', last)
redis.call('PEXPIREAT', KEYS[1], deadline + tonumber(ARGV[3]))
redis.call('ZADD', KEYS[2], deadline, ARGV[4])
return 1
`;

/** The Redis key of a session: it exists exactly as long as the session can be used or reported ended. */
export function sessionKey(redis: SharedRedis, sessionId: string): string {
  return redis.key('session', sessionId);
}

/** Replaces the sealed data of a session that still exists (never recreates one without its expiry). */
const RESEAL_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSET', KEYS[1], 'data', ARGV[1])
`;

/**
 * Sessions in Redis, for a fleet of BFF instances: a hash per session whose data (tokens included) is
 * sealed with AES-256-GCM, expiring with the idle and absolute lifetimes; a sorted set of deadlines for
 * the sweep; sets by traveler and by identity session for back-channel logout. Every operation fails
 * with 503 RETRY_LATER while Redis is unreachable.
 */
export class RedisSessionStore implements SessionStore {
  readonly #redis: SharedRedis;
  readonly #idleMs: number;
  readonly #absoluteMs: number;

  constructor(options: RedisSessionStoreOptions) {
    this.#redis = options.redis;
    this.#idleMs = options.idleTimeoutMs;
    this.#absoluteMs = options.absoluteLifetimeMs;
  }

  get(id: string): Promise<StoredSession | undefined> {
    return withRedis(async () => {
      const fields = await this.#client.hmget(this.#sessionKey(id), 'data', 'lastSeenAt');
      const [data, lastSeenAt] = fields;
      if (data === null || data === undefined) return undefined;
      const session = this.#open(id, data);
      if (session === undefined) return undefined;
      if (this.#redis.cipher.isStale(data)) {
        // Re-sealed with the current key on the way, so that the old key can be retired.
        await this.#client.eval(RESEAL_SCRIPT, 1, this.#sessionKey(id), this.#seal(session));
      }
      return { ...session, lastSeenAt: Math.max(session.lastSeenAt, Number(lastSeenAt ?? 0)) };
    });
  }

  set(session: StoredSession): Promise<void> {
    return withRedis(async () => {
      const key = this.#sessionKey(session.id);
      const deadline = this.#deadline(session);
      const indexTtlMs = this.#absoluteMs + EXPIRY_GRACE_MS;
      const transaction = this.#client
        .multi()
        .hset(key, {
          data: this.#seal(session),
          lastSeenAt: session.lastSeenAt,
          absoluteExpiresAt: session.absoluteExpiresAt,
        })
        .pexpireat(key, deadline + EXPIRY_GRACE_MS)
        .zadd(this.#deadlinesKey, deadline, session.id);
      if (session.travelerId !== undefined) {
        const bySubject = this.#bySubjectKey(session.travelerId);
        transaction.sadd(bySubject, session.id).pexpire(bySubject, indexTtlMs);
      }
      if (session.identitySessionId !== undefined) {
        const bySid = this.#bySidKey(session.identitySessionId);
        transaction.sadd(bySid, session.id).pexpire(bySid, indexTtlMs);
      }
      await transaction.exec();
    });
  }

  delete(id: string): Promise<boolean> {
    return withRedis(async () => {
      const key = this.#sessionKey(id);
      const data = await this.#client.hget(key, 'data');
      const session = data === null ? undefined : this.#open(id, data);
      const transaction = this.#client.multi().del(key).zrem(this.#deadlinesKey, id);
      if (session?.travelerId !== undefined) transaction.srem(this.#bySubjectKey(session.travelerId), id);
      if (session?.identitySessionId !== undefined) {
        transaction.srem(this.#bySidKey(session.identitySessionId), id);
      }
      const results = await transaction.exec();
      return results?.[0]?.[1] === 1;
    });
  }

  touch(id: string, lastSeenAt: number): Promise<void> {
    return withRedis(async () => {
      await this.#client.eval(
        TOUCH_SCRIPT,
        2,
        this.#sessionKey(id),
        this.#deadlinesKey,
        lastSeenAt,
        this.#idleMs,
        EXPIRY_GRACE_MS,
        id,
      );
    });
  }

  findBySid(identitySessionId: string): Promise<StoredSession[]> {
    return this.#members(this.#bySidKey(identitySessionId));
  }

  findBySubject(travelerId: string): Promise<StoredSession[]> {
    return this.#members(this.#bySubjectKey(travelerId));
  }

  /** Sessions whose deadline has passed; the deadlines already account for the idle timeout. */
  findExpired(now: number): Promise<string[]> {
    return withRedis(() => this.#client.zrangebyscore(this.#deadlinesKey, '-inf', now, 'LIMIT', 0, 1000));
  }

  saveLoginTransaction(transaction: LoginTransaction): Promise<void> {
    return withRedis(async () => {
      const key = this.#redis.key('login', transaction.id);
      const sealed = this.#redis.cipher.seal(JSON.stringify(transaction), key);
      await this.#client.set(key, sealed, 'PXAT', transaction.expiresAt);
    });
  }

  takeLoginTransaction(id: string): Promise<LoginTransaction | undefined> {
    return withRedis(async () => {
      const key = this.#redis.key('login', id);
      const sealed = await this.#client.getdel(key);
      if (sealed === null) return undefined;
      const plaintext = this.#redis.cipher.open(sealed, key);
      if (plaintext === undefined) return undefined;
      const transaction = JSON.parse(plaintext) as LoginTransaction;
      return transaction.expiresAt > Date.now() ? transaction : undefined;
    });
  }

  rememberLogoutTokenId(jti: string, expiresAt: number): Promise<boolean> {
    return withRedis(async () => {
      const expiry = Math.max(expiresAt, Date.now() + 1000);
      const stored = await this.#client.set(this.#redis.key('logout-jti', jti), '1', 'PXAT', expiry, 'NX');
      return stored === 'OK';
    });
  }

  /** The connection belongs to the app (closed by the Redis plugin), not to the store. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  get #client() {
    return this.#redis.client;
  }

  get #deadlinesKey(): string {
    return this.#redis.key('session-deadlines');
  }

  #sessionKey(id: string): string {
    return sessionKey(this.#redis, id);
  }

  #bySubjectKey(travelerId: string): string {
    return this.#redis.key('sessions-by-traveler', travelerId);
  }

  #bySidKey(identitySessionId: string): string {
    return this.#redis.key('sessions-by-sid', identitySessionId);
  }

  #deadline(session: StoredSession): number {
    return Math.min(session.absoluteExpiresAt, session.lastSeenAt + this.#idleMs);
  }

  #seal(session: StoredSession): string {
    return this.#redis.cipher.seal(JSON.stringify(session), this.#sessionKey(session.id));
  }

  #open(id: string, sealed: string): StoredSession | undefined {
    const plaintext = this.#redis.cipher.open(sealed, this.#sessionKey(id));
    return plaintext === undefined ? undefined : (JSON.parse(plaintext) as StoredSession);
  }

  async #members(indexKey: string): Promise<StoredSession[]> {
    const ids = await withRedis(() => this.#client.smembers(indexKey));
    const sessions: StoredSession[] = [];
    for (const id of ids) {
      const session = await this.get(id);
      if (session) sessions.push(session);
      else await withRedis(() => this.#client.srem(indexKey, id));
    }
    return sessions;
  }
}
