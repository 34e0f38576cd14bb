import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { NotificationStreamState } from '#shared/api/notification-stream-events.ts';
import { waitForRedis } from '../redis/redis-client.ts';
import type { SharedRedis } from '../redis/redis-plugin.ts';
import {
  parseNotification,
  type AdmitInput,
  type ChannelMessage,
  type ControlMessage,
  type LoggedNotification,
  type NotificationStore,
  type NotificationStoreLimits,
  type NotificationStoreListener,
} from './notification-store.ts';

/** Redis's own clock in epoch ms, so that every instance judges expiry by the same clock. */
const NOW_MS = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/**
 * An instance says it is alive, once per renewal for all of its travelers: its entry in the set of live
 * instances is good for one lease. Returns the instances alive now.
 * KEYS: instances. ARGV: instance id, lease ms, key ttl ms.
 */
const HEARTBEAT_SCRIPT = `${NOW_MS}
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('ZRANGE', KEYS[1], 0, -1)
`;

/**
 * Takes or keeps a traveler's lease. The lease names its holder and lasts as long as the holder is alive
 * (its entry in the set of live instances), so it is not renewed per traveler: a lease whose holder died
 * is free. Returns the holder after the call.
 * KEYS: lease, instances. ARGV: instance id, key ttl ms.
 */
const LEASE_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
  ${NOW_MS}
  local alive = redis.call('ZSCORE', KEYS[2], holder)
  if alive and tonumber(alive) > now then return holder end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]
`;

/** Frees the lease if it is ours and tells the traveler's other hubs, so one of them takes it at once. */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
`;

/** Writes KEYS[2] = ARGV[2] (PX ARGV[3]) only while the lease KEYS[1] is ARGV[1]'s. */
const SET_IF_HOLDER_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
`;

/**
 * A notification enters the fleet once: remembered among the traveler's seen ids (dedupe across
 * instances and takeovers), appended to the traveler's Redis stream (replay for Last-Event-ID and for
 * an instance whose subscription dropped), then published to every instance with streams. Returns the
 * number of instances it reached, or -1 for a duplicate. A baseline only records.
 * KEYS: seen, log. ARGV: id, json, mode, channel, ack key, seen cap, log cap, ttl ms, now, traceparent.
 */
const INGEST_SCRIPT = `
if redis.call('ZADD', KEYS[1], 'NX', ARGV[9], ARGV[1]) == 0 then return -1 end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[6]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[8])
local entry = redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[7], '*', 'id', ARGV[1], 'n', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[8])
if ARGV[3] == 'baseline' then return 0 end
local trace = ''
if ARGV[10] ~= '' then trace = ',"traceparent":' .. cjson.encode(ARGV[10]) end
local message = '{"type":"notification","entry":' .. cjson.encode(entry) .. ',"ack":' .. cjson.encode(ARGV[5]) .. trace .. ',"notification":' .. ARGV[2] .. '}'
return redis.call('PUBLISH', ARGV[4], message)
`;

/** How long a traveler's fleet state (seen ids, replay log, checkpoint) outlives their last activity. */
const STATE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const ACK_POLL_MS = 15;
const ACK_TTL_MS = 10_000;
/**
 * A traveler's lease, visibility and upstream state are written when they change, and again this often
 * while they stay the same, so that their keys (which live three times as long) outlive no traveler by
 * much. Idle, a connected traveler costs Redis a few commands per interval; the instance's heartbeat
 * is one script per renewal whatever the number of travelers (docs/scale-out.md).
 */
const TRAVELER_KEY_REFRESH_MS = 10 * 60 * 1000;
const TRAVELER_KEY_TTL_MS = TRAVELER_KEY_REFRESH_MS * 3;
/** Sent on a traveler's channel when the lease holder lets go; the store handles it, no hub sees it. */
const LEASE_RELEASED = JSON.stringify({ type: 'lease-released' });

/** One instance's most recent visible tab of a traveler, as the fleet sees it (epoch ms). */
interface SharedVisibility {
  since: number;
  /** When the entry was written: an entry of an instance that is not alive counts only if it is newer than the list of live instances. */
  at?: number;
}

export interface RedisNotificationStoreOptions extends NotificationStoreLimits {
  redis: Pick<SharedRedis, 'client' | 'instanceId' | 'key' | 'subscriber'>;
  logger: FastifyBaseLogger;
  /** How long a traveler's upstream stays with an instance that stopped renewing its lease. */
  leaseMs: number;
  sessionExists: (sessionId: string) => Promise<boolean>;
}

/**
 * The notification store of a fleet of BFF instances sharing Redis: a lease per traveler (renewed a
 * third of a lease apart), a channel per traveler (pub/sub), seen ids, a replay log (a Redis stream),
 * the catch-up checkpoint and the upstream's state under the traveler's keys, a control channel for
 * session ends and visibility, and acknowledgement counters for pushes.
 */
export class RedisNotificationStore implements NotificationStore {
  readonly leaseRenewMs: number;
  readonly #options: RedisNotificationStoreOptions;
  readonly #client: Redis;
  readonly #instanceId: string;
  readonly #controlChannel: string;
  readonly #channelPrefix: string;
  #subscriber: Redis | undefined;
  #listener: NotificationStoreListener | undefined;
  readonly #instancesKey: string;
  /** The instances alive at the last heartbeat, and when that heartbeat was sent (local ms). */
  #liveInstances = new Set<string>();
  #heartbeatAt = 0;
  #heartbeat: Promise<void> | undefined;
  #heartbeatTimer: NodeJS.Timeout | undefined;
  /** Leases this instance holds: traveler -> when the lease key was last written (local ms). */
  readonly #held = new Map<string, number>();
  /** Leases another instance holds, as last read: traveler -> holder and when it was read. */
  readonly #heldElsewhere = new Map<string, { holder: string; at: number }>();
  /** What this instance last wrote of each traveler's visibility and upstream state, and when. */
  readonly #sharedVisibility = new Map<string, { since: number | undefined; at: number }>();
  readonly #sharedState = new Map<string, { state: NotificationStreamState; at: number }>();

  constructor(options: RedisNotificationStoreOptions) {
    this.#options = options;
    this.#client = options.redis.client;
    this.#instanceId = options.redis.instanceId;
    this.leaseRenewMs = Math.max(100, options.leaseMs / 3);
    this.#controlChannel = options.redis.key('hub-control');
    this.#channelPrefix = options.redis.key('hub', '');
    this.#instancesKey = options.redis.key('hub-instances');
  }

  listen(listener: NotificationStoreListener): void {
    this.#listener = listener;
    const subscriber = this.#options.redis.subscriber();
    this.#subscriber = subscriber;
    subscriber.on('message', (channel: string, text: string) => this.#onMessage(channel, text));
    // After a lost subscription, the log of each traveler replays what was published meanwhile.
    let connectedBefore = subscriber.status === 'ready';
    subscriber.on('ready', () => {
      // Redis may have come back without the keys: every lease and shared value is read or written again.
      if (connectedBefore) this.#forgetShared();
      if (connectedBefore) this.#listener?.resubscribed();
      connectedBefore = true;
    });
    this.#heartbeatTimer = setInterval(() => {
      this.#beat().catch(() => undefined);
    }, this.leaseRenewMs);
    this.#heartbeatTimer.unref();
    subscriber.subscribe(this.#controlChannel).catch((error: unknown) => {
      this.#options.logger.error({ err: error }, 'hub control channel subscription failed');
    });
  }

  async join(travelerId: string): Promise<void> {
    await this.#subscriber?.subscribe(this.#key('hub', travelerId));
  }

  leave(travelerId: string): void {
    this.#held.delete(travelerId);
    this.#heldElsewhere.delete(travelerId);
    this.#sharedVisibility.delete(travelerId);
    this.#sharedState.delete(travelerId);
    this.#client.hdel(this.#key('hub-visible', travelerId), this.#instanceId).catch(() => undefined);
    this.#subscriber?.unsubscribe(this.#key('hub', travelerId)).catch(() => undefined);
  }

  /**
   * Answered from memory while nothing changed: this instance's heartbeat keeps every lease it holds, and
   * a lease held by a live instance stays there until that instance dies (it drops out of the live set)
   * or lets go (its release reaches this instance on the traveler's channel). Redis is asked only then,
   * and once per key refresh interval.
   */
  async acquireLease(travelerId: string): Promise<boolean> {
    await this.#alive();
    const now = Date.now();
    const heldSince = this.#held.get(travelerId);
    if (heldSince !== undefined && now - heldSince < TRAVELER_KEY_REFRESH_MS) return true;
    const elsewhere = this.#heldElsewhere.get(travelerId);
    if (
      elsewhere !== undefined &&
      this.#liveInstances.has(elsewhere.holder) &&
      now - elsewhere.at < TRAVELER_KEY_REFRESH_MS
    ) {
      return false;
    }
    const holder = (await this.#client.eval(
      LEASE_SCRIPT,
      2,
      this.#key('hub-lease', travelerId),
      this.#instancesKey,
      this.#instanceId,
      TRAVELER_KEY_TTL_MS,
    )) as string;
    if (holder === this.#instanceId) {
      this.#held.set(travelerId, now);
      this.#heldElsewhere.delete(travelerId);
      return true;
    }
    this.#held.delete(travelerId);
    this.#heldElsewhere.set(travelerId, { holder, at: now });
    return false;
  }

  async releaseLease(travelerId: string): Promise<void> {
    this.#held.delete(travelerId);
    await this.#client.eval(
      RELEASE_SCRIPT,
      1,
      this.#key('hub-lease', travelerId),
      this.#instanceId,
      this.#key('hub', travelerId),
      LEASE_RELEASED,
    );
  }

  admit(travelerId: string, { notification, mode, ack, traceparent }: AdmitInput): Promise<number> {
    return this.#client.eval(
      INGEST_SCRIPT,
      2,
      this.#key('hub-seen', travelerId),
      this.#key('hub-log', travelerId),
      notification.id,
      JSON.stringify(notification),
      mode,
      this.#key('hub', travelerId),
      ack,
      this.#options.dedupeCapacity,
      this.#options.resumeCapacity,
      STATE_TTL_MS,
      Date.now(),
      traceparent ?? '',
    ) as Promise<number>;
  }

  async publish(
    travelerId: string,
    message: Exclude<ChannelMessage, { type: 'notification' }>,
  ): Promise<void> {
    await this.#client.publish(this.#key('hub', travelerId), JSON.stringify(message));
  }

  readCheckpoint(travelerId: string): Promise<string | null> {
    return this.#client.get(this.#key('hub-checkpoint', travelerId));
  }

  async writeCheckpoint(travelerId: string, head: string): Promise<void> {
    await this.#client.eval(
      SET_IF_HOLDER_SCRIPT,
      2,
      this.#key('hub-lease', travelerId),
      this.#key('hub-checkpoint', travelerId),
      this.#instanceId,
      head,
      STATE_TTL_MS,
    );
  }

  async upstreamState(travelerId: string): Promise<NotificationStreamState | null> {
    return (await this.#client.get(this.#key('hub-state', travelerId))) as NotificationStreamState | null;
  }

  async setUpstreamState(travelerId: string, state: NotificationStreamState): Promise<void> {
    const now = Date.now();
    const shared = this.#sharedState.get(travelerId);
    if (shared?.state === state && now - shared.at < TRAVELER_KEY_REFRESH_MS) return;
    await this.#client.set(this.#key('hub-state', travelerId), state, 'PX', TRAVELER_KEY_TTL_MS);
    this.#sharedState.set(travelerId, { state, at: now });
  }

  async log(travelerId: string): Promise<LoggedNotification[]> {
    return toLogged(await this.#client.xrange(this.#key('hub-log', travelerId), '-', '+'));
  }

  async logAfter(travelerId: string, entry: string): Promise<LoggedNotification[] | undefined> {
    const log = this.#key('hub-log', travelerId);
    if ((await this.#client.xrange(log, entry, entry)).length !== 1) return undefined;
    return toLogged(await this.#client.xrange(log, `(${entry}`, '+'));
  }

  shareVisibility(travelerId: string, since: number | undefined): void {
    const key = this.#key('hub-visible', travelerId);
    const now = Date.now();
    const shared = this.#sharedVisibility.get(travelerId);
    if (shared !== undefined && shared.since === since && now - shared.at < TRAVELER_KEY_REFRESH_MS) return;
    this.#sharedVisibility.set(travelerId, { since, at: now });
    if (since === undefined) {
      this.#client.hdel(key, this.#instanceId).catch(() => this.#sharedVisibility.delete(travelerId));
      return;
    }
    const entry: SharedVisibility = { since, at: now };
    this.#client
      .multi()
      .hset(key, this.#instanceId, JSON.stringify(entry))
      .pexpire(key, TRAVELER_KEY_TTL_MS)
      .exec()
      .catch(() => this.#sharedVisibility.delete(travelerId));
  }

  /**
   * Ties go to the lower instance id, so exactly one instance alerts. The entry of an instance that died
   * stays behind it: only the entries of live instances count (or entries newer than the last heartbeat,
   * of an instance started since).
   */
  async visibleElsewhereSince(travelerId: string, since: number): Promise<boolean> {
    const others = await this.#client.hgetall(this.#key('hub-visible', travelerId));
    for (const [instanceId, value] of Object.entries(others)) {
      if (instanceId === this.#instanceId) continue;
      const other = JSON.parse(value) as SharedVisibility;
      if (!this.#liveInstances.has(instanceId) && (other.at ?? 0) <= this.#heartbeatAt) continue;
      if (other.since > since || (other.since === since && instanceId < this.#instanceId)) return true;
    }
    return false;
  }

  broadcast(message: ControlMessage): void {
    const text = JSON.stringify({ ...message, origin: this.#instanceId });
    this.#client.publish(this.#controlChannel, text).catch((error: unknown) => {
      this.#options.logger.warn({ err: error, type: message.type }, 'hub control message not sent');
    });
  }

  newAck(travelerId: string): string {
    return this.#key('hub-ack', travelerId, randomUUID());
  }

  async acknowledge(ack: string): Promise<void> {
    await this.#client.multi().incr(ack).pexpire(ack, ACK_TTL_MS).exec();
  }

  async waitForAcks(ack: string, count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (Number((await this.#client.get(ack)) ?? 0) >= count) return;
      await sleep(ACK_POLL_MS);
    }
  }

  sessionExists(sessionId: string): Promise<boolean> {
    return this.#options.sessionExists(sessionId);
  }

  async reachable(timeoutMs: number): Promise<void> {
    await waitForRedis(this.#client, timeoutMs);
  }

  /**
   * Commands on one connection are answered in order: once the heartbeat's entry is gone, every release
   * sent before it is through too, and a lease this instance still names is free for any other.
   */
  async retire(): Promise<void> {
    clearInterval(this.#heartbeatTimer);
    this.#heartbeatAt = 0;
    await this.#client.zrem(this.#instancesKey, this.#instanceId);
  }

  close(): void {
    this.#listener = undefined;
    clearInterval(this.#heartbeatTimer);
    this.#subscriber?.unsubscribe().catch(() => undefined);
  }

  /**
   * This instance is alive in the fleet's eyes: a heartbeat went out less than two renewals ago (its entry
   * lasts three), so a lease this instance believes it holds cannot have been taken over. Otherwise one is
   * sent now; if Redis does not take it, every lease is given up (throws).
   */
  async #alive(): Promise<void> {
    if (Date.now() - this.#heartbeatAt < this.leaseRenewMs * 2) return;
    await this.#beat();
  }

  /** One heartbeat at a time, shared by every traveler that asks for one meanwhile. */
  #beat(): Promise<void> {
    this.#heartbeat ??= this.#sendHeartbeat().finally(() => {
      this.#heartbeat = undefined;
    });
    return this.#heartbeat;
  }

  async #sendHeartbeat(): Promise<void> {
    const sentAt = Date.now();
    // After a gap this instance's entry may have run out and its leases been taken: each is checked again.
    if (this.#heartbeatAt !== 0 && sentAt - this.#heartbeatAt >= this.leaseRenewMs * 2) this.#forgetShared();
    try {
      const live = (await this.#client.eval(
        HEARTBEAT_SCRIPT,
        1,
        this.#instancesKey,
        this.#instanceId,
        this.#options.leaseMs,
        TRAVELER_KEY_TTL_MS,
      )) as string[];
      this.#liveInstances = new Set(live);
      this.#heartbeatAt = sentAt;
    } catch (error) {
      if (Date.now() - this.#heartbeatAt >= this.leaseRenewMs * 2) this.#forgetShared();
      throw error;
    }
  }

  /** Redis is to be asked again about every lease and shared value (it was unreachable, or came back). */
  #forgetShared(): void {
    this.#held.clear();
    this.#heldElsewhere.clear();
    this.#sharedVisibility.clear();
    this.#sharedState.clear();
  }

  #key(...parts: string[]): string {
    return this.#options.redis.key(...parts);
  }

  #onMessage(channel: string, text: string): void {
    const listener = this.#listener;
    if (listener === undefined) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (channel === this.#controlChannel) {
      const { origin, ...control } = message as ControlMessage & { origin: string };
      if (origin !== this.#instanceId) listener.control(control);
      return;
    }
    if (channel.startsWith(this.#channelPrefix)) {
      const travelerId = channel.slice(this.#channelPrefix.length);
      // The holder let go: the lease check here asks Redis at once, and may take it.
      if ((message as { type?: unknown }).type === 'lease-released') {
        this.#heldElsewhere.delete(travelerId);
        listener.leaseReleased(travelerId);
      } else listener.channel(travelerId, message as ChannelMessage);
    }
  }
}

/** Redis stream entries ([id, [name, value, ...]]) to logged notifications. */
function toLogged(entries: [string, string[]][]): LoggedNotification[] {
  return entries.flatMap(([entry, fields]) => {
    const index = fields.indexOf('n');
    const value = index === -1 ? undefined : fields[index + 1];
    const notification = value === undefined ? undefined : parseNotification(value);
    return notification === undefined ? [] : [{ entry, notification }];
  });
}
