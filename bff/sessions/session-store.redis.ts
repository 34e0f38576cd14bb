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

/**
 * The Redis key of a session, named by a keyed hash of its id (SessionCipher.nameOf), never by the id: the
 * id is the browser's cookie, and a reader of Redis would take the session over from the key name. The
 * key exists exactly as long as the session can be used or reported ended.
 */
export function sessionKey(redis: SharedRedis, sessionId: string): string {
  return redis.key('session', redis.cipher.nameOf(sessionId));
}

/**
 * Where a session may still be kept under an earlier name: the names the other listed keys give it (the
 * sealing key was changed) and, from versions that named sessions by their id, the id itself.
 */
function formerNames(redis: SharedRedis, sessionId: string): string[] {
  return [...redis.cipher.formerNamesOf(sessionId), sessionId];
}

/** Every key a session may be under: its key first, then those of its former names. */
export function sessionKeys(redis: SharedRedis, sessionId: string): string[] {
  return [
    sessionKey(redis, sessionId),
    ...formerNames(redis, sessionId).map((name) => redis.key('session', name)),
  ];
}

/** Replaces the sealed data of a session that still exists (never recreates one without its expiry). */
const RESEAL_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSET', KEYS[1], 'data', ARGV[1])
`;

/**
 * Moves a session kept under a former name to its name, at once: its hash (with its expiry) and its
 * members in the deadlines and the index sets. Only when the data is still what was opened and re-sealed
 * (ARGV[1]) and nothing is under the new name yet; otherwise 0, and the caller reads again.
 * KEYS: former key, new key, deadlines, index sets. ARGV: data read, data re-sealed, former name, name.
 */
const MOVE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'data') ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[2], 'data', ARGV[2])
local deadline = redis.call('ZSCORE', KEYS[3], ARGV[3])
if deadline then
  redis.call('ZREM', KEYS[3], ARGV[3])
  redis.call('ZADD', KEYS[3], deadline, ARGV[4])
end
for i = 4, #KEYS do
  if redis.call('SREM', KEYS[i], ARGV[3]) == 1 then redis.call('SADD', KEYS[i], ARGV[4]) end
end
return 1
`;

/** A session found under a name, with that name. */
interface Found {
  name: string;
  data: string;
  session: StoredSession;
  lastSeenAt: number;
}

/**
 * Sessions in Redis, for a fleet of BFF instances: a hash per session whose data (tokens included) is
 * sealed with AES-256-GCM, expiring with the idle and absolute lifetimes; a sorted set of deadlines for
 * the sweep; sets by traveler and by identity session for back-channel logout. Keys and members name a
 * session by a keyed hash of its id, never by the id. A session found under a former name (an earlier key,
 * or the id itself) is moved to its name when it is read. Every operation fails with 503 RETRY_LATER
 * while Redis is unreachable.
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
      const name = this.#redis.cipher.nameOf(id);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const found = (await this.#read(name)) ?? (await this.#readFormer(id));
        if (found === undefined) return undefined;
        const session = {
          ...found.session,
          lastSeenAt: Math.max(found.session.lastSeenAt, found.lastSeenAt),
        };
        if (found.name !== name) {
          // Kept under a former name: moved to its name at once, or read again if it changed meanwhile.
          if (await this.#move(found, name)) return session;
          continue;
        }
        if (this.#redis.cipher.isStale(found.data)) {
          // Re-sealed with the current key on the way, so that the old key can be retired.
          await this.#client.eval(RESEAL_SCRIPT, 1, this.#key(name), this.#seal(found.session));
        }
        return session;
      }
      return undefined;
    });
  }

  set(session: StoredSession): Promise<void> {
    return withRedis(async () => {
      const name = this.#redis.cipher.nameOf(session.id);
      const key = this.#key(name);
      const deadline = this.#deadline(session);
      const indexTtlMs = this.#absoluteMs + EXPIRY_GRACE_MS;
      const indexes = this.#indexKeys(session);
      const transaction = this.#client
        .multi()
        .hset(key, {
          data: this.#seal(session),
          lastSeenAt: session.lastSeenAt,
          absoluteExpiresAt: session.absoluteExpiresAt,
        })
        .pexpireat(key, deadline + EXPIRY_GRACE_MS)
        .zadd(this.#deadlinesKey, deadline, name);
      for (const index of indexes) transaction.sadd(index, name).pexpire(index, indexTtlMs);
      // Whatever a former name still held is replaced by this session, which is now under its name only.
      for (const former of formerNames(this.#redis, session.id)) {
        transaction.del(this.#key(former)).zrem(this.#deadlinesKey, former);
        for (const index of indexes) transaction.srem(index, former);
      }
      await transaction.exec();
      // A sign-in or a token refresh (whose refresh token the identity platform rotated) must outlive a
      // failover of the primary right after it.
      await this.#redis.replicated();
    });
  }

  delete(id: string): Promise<boolean> {
    return withRedis(async () => {
      const names = [this.#redis.cipher.nameOf(id), ...formerNames(this.#redis, id)];
      const session =
        (await this.#read(names[0] as string))?.session ?? (await this.#readFormer(id))?.session;
      const indexes = session === undefined ? [] : this.#indexKeys(session);
      const transaction = this.#client
        .multi()
        .del(...names.map((name) => this.#key(name)))
        .zrem(this.#deadlinesKey, ...names);
      for (const index of indexes) transaction.srem(index, ...names);
      const results = await transaction.exec();
      return Number(results?.[0]?.[1] ?? 0) > 0;
    });
  }

  touch(id: string, lastSeenAt: number): Promise<void> {
    return withRedis(async () => {
      const name = this.#redis.cipher.nameOf(id);
      await this.#client.eval(
        TOUCH_SCRIPT,
        2,
        this.#key(name),
        this.#deadlinesKey,
        lastSeenAt,
        this.#idleMs,
        EXPIRY_GRACE_MS,
        name,
      );
    });
  }

  findBySid(identitySessionId: string): Promise<StoredSession[]> {
    return this.#members(this.#bySidKey(identitySessionId));
  }

  findBySubject(travelerId: string): Promise<StoredSession[]> {
    return this.#members(this.#bySubjectKey(travelerId));
  }

  /**
   * Sessions whose deadline has passed (the deadlines already account for the idle timeout), by id: the
   * names in the deadlines are opened to learn it. A name whose session is gone leaves the deadlines.
   */
  findExpired(now: number): Promise<string[]> {
    return withRedis(async () => {
      const names = await this.#client.zrangebyscore(this.#deadlinesKey, '-inf', now, 'LIMIT', 0, 1000);
      const ids: string[] = [];
      for (const name of names) {
        const found = await this.#read(name);
        if (found === undefined) await this.#client.zrem(this.#deadlinesKey, name);
        else ids.push(found.session.id);
      }
      return ids;
    });
  }

  saveLoginTransaction(transaction: LoginTransaction): Promise<void> {
    return withRedis(async () => {
      const key = this.#loginKey(this.#redis.cipher.nameOf(transaction.id));
      const sealed = this.#redis.cipher.seal(JSON.stringify(transaction), key);
      await this.#client.set(key, sealed, 'PXAT', transaction.expiresAt);
    });
  }

  takeLoginTransaction(id: string): Promise<LoginTransaction | undefined> {
    return withRedis(async () => {
      // A sign-in started before login transactions were named by a keyed hash is still completed.
      const keys = [this.#redis.cipher.nameOf(id), id].map((name) => this.#loginKey(name));
      const taken = await this.#client
        .multi()
        .getdel(keys[0] as string)
        .getdel(keys[1] as string)
        .exec();
      const index = taken?.findIndex(([, value]) => typeof value === 'string') ?? -1;
      const sealed = taken?.[index]?.[1];
      if (typeof sealed !== 'string') return undefined;
      const plaintext = this.#redis.cipher.open(sealed, keys[index] as string);
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

  #key(name: string): string {
    return this.#redis.key('session', name);
  }

  #loginKey(name: string): string {
    return this.#redis.key('login', name);
  }

  #bySubjectKey(travelerId: string): string {
    return this.#redis.key('sessions-by-traveler', travelerId);
  }

  #bySidKey(identitySessionId: string): string {
    return this.#redis.key('sessions-by-sid', identitySessionId);
  }

  #indexKeys(session: StoredSession): string[] {
    return [
      ...(session.travelerId === undefined ? [] : [this.#bySubjectKey(session.travelerId)]),
      ...(session.identitySessionId === undefined ? [] : [this.#bySidKey(session.identitySessionId)]),
    ];
  }

  #deadline(session: StoredSession): number {
    return Math.min(session.absoluteExpiresAt, session.lastSeenAt + this.#idleMs);
  }

  /** Sealed under its key name, so that data copied under another session's name does not open. */
  #seal(session: StoredSession): string {
    return this.#redis.cipher.seal(JSON.stringify(session), sessionKey(this.#redis, session.id));
  }

  /** The session kept under a name, opened with that name's key as its associated data. */
  async #read(name: string): Promise<Found | undefined> {
    const [data, lastSeenAt] = await this.#client.hmget(this.#key(name), 'data', 'lastSeenAt');
    if (data === null || data === undefined) return undefined;
    const plaintext = this.#redis.cipher.open(data, this.#key(name));
    if (plaintext === undefined) return undefined;
    return {
      name,
      data,
      session: JSON.parse(plaintext) as StoredSession,
      lastSeenAt: Number(lastSeenAt ?? 0),
    };
  }

  /** The session under one of its former names, the first found; one round trip. */
  async #readFormer(id: string): Promise<Found | undefined> {
    const names = formerNames(this.#redis, id);
    const pipeline = this.#client.pipeline();
    for (const name of names) pipeline.hmget(this.#key(name), 'data', 'lastSeenAt');
    const results = (await pipeline.exec()) ?? [];
    for (const [index, name] of names.entries()) {
      const [error, fields] = results[index] ?? [];
      if (error) throw error;
      const [data, lastSeenAt] = (fields ?? []) as (string | null)[];
      if (data === null || data === undefined) continue;
      const plaintext = this.#redis.cipher.open(data, this.#key(name));
      if (plaintext === undefined) continue;
      const session = JSON.parse(plaintext) as StoredSession;
      if (session.id === id) return { name, data, session, lastSeenAt: Number(lastSeenAt ?? 0) };
    }
    return undefined;
  }

  /** Moves a session found under a former name to `name`; false when it changed or moved meanwhile. */
  async #move(found: Found, name: string): Promise<boolean> {
    const keys = [
      this.#key(found.name),
      this.#key(name),
      this.#deadlinesKey,
      ...this.#indexKeys(found.session),
    ];
    const moved = await this.#client.eval(
      MOVE_SCRIPT,
      keys.length,
      ...keys,
      found.data,
      this.#seal(found.session),
      found.name,
      name,
    );
    return moved === 1;
  }

  /** The sessions an index set names; names whose session is gone leave the set. */
  async #members(indexKey: string): Promise<StoredSession[]> {
    const names = await withRedis(() => this.#client.smembers(indexKey));
    const sessions: StoredSession[] = [];
    for (const name of names) {
      const found = await withRedis(() => this.#read(name));
      // Read through get, which moves a session still under a former name to its name.
      const session = found === undefined ? undefined : await this.get(found.session.id);
      if (session) sessions.push(session);
      else await withRedis(() => this.#client.srem(indexKey, name));
    }
    return sessions;
  }
}
