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

/**
 * Takes or keeps the lease: free -> ours; already ours -> extended. Returns 1 when we hold it.
 * KEYS: lease. ARGV: instance id, lease ms.
 */
const LEASE_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
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

/** One instance's most recent visible tab of a traveler, as the fleet sees it (epoch ms). */
interface SharedVisibility {
  since: number;
  /** Ignored after this instant: the instance stopped renewing it (it died). */
  until: number;
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

  constructor(options: RedisNotificationStoreOptions) {
    this.#options = options;
    this.#client = options.redis.client;
    this.#instanceId = options.redis.instanceId;
    this.leaseRenewMs = Math.max(100, options.leaseMs / 3);
    this.#controlChannel = options.redis.key('hub-control');
    this.#channelPrefix = options.redis.key('hub', '');
  }

  listen(listener: NotificationStoreListener): void {
    this.#listener = listener;
    const subscriber = this.#options.redis.subscriber();
    this.#subscriber = subscriber;
    subscriber.on('message', (channel: string, text: string) => this.#onMessage(channel, text));
    // After a lost subscription, the log of each traveler replays what was published meanwhile.
    let connectedBefore = subscriber.status === 'ready';
    subscriber.on('ready', () => {
      if (connectedBefore) this.#listener?.resubscribed();
      connectedBefore = true;
    });
    subscriber.subscribe(this.#controlChannel).catch((error: unknown) => {
      this.#options.logger.error({ err: error }, 'hub control channel subscription failed');
    });
  }

  async join(travelerId: string): Promise<void> {
    await this.#subscriber?.subscribe(this.#key('hub', travelerId));
  }

  leave(travelerId: string): void {
    this.#client.hdel(this.#key('hub-visible', travelerId), this.#instanceId).catch(() => undefined);
    this.#subscriber?.unsubscribe(this.#key('hub', travelerId)).catch(() => undefined);
  }

  async acquireLease(travelerId: string): Promise<boolean> {
    const held = await this.#client.eval(
      LEASE_SCRIPT,
      1,
      this.#key('hub-lease', travelerId),
      this.#instanceId,
      this.#options.leaseMs,
    );
    return held === 1;
  }

  async releaseLease(travelerId: string): Promise<void> {
    await this.#client.eval(RELEASE_SCRIPT, 1, this.#key('hub-lease', travelerId), this.#instanceId);
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
    await this.#client.set(this.#key('hub-state', travelerId), state, 'PX', this.#options.leaseMs * 2);
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
    const ttlMs = this.#options.leaseMs * 2;
    const write =
      since === undefined
        ? this.#client.hdel(key, this.#instanceId)
        : this.#client
            .multi()
            .hset(key, this.#instanceId, JSON.stringify({ since, until: Date.now() + ttlMs }))
            .pexpire(key, ttlMs)
            .exec();
    write.catch(() => undefined);
  }

  /** Ties go to the lower instance id, so exactly one instance alerts. */
  async visibleElsewhereSince(travelerId: string, since: number): Promise<boolean> {
    const others = await this.#client.hgetall(this.#key('hub-visible', travelerId));
    const now = Date.now();
    for (const [instanceId, value] of Object.entries(others)) {
      if (instanceId === this.#instanceId) continue;
      const other = JSON.parse(value) as SharedVisibility;
      if (other.until <= now) continue;
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

  close(): void {
    this.#listener = undefined;
    this.#subscriber?.unsubscribe().catch(() => undefined);
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
      listener.channel(channel.slice(this.#channelPrefix.length), message as ChannelMessage);
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
