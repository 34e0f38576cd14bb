import { withRedis } from '../redis/redis-client.ts';
import type { SharedRedis } from '../redis/redis-plugin.ts';
import type { CalendarFeed, CalendarFeedStore, EventRevision } from './calendar-feed-store.ts';

/**
 * Makes ARGV[1] (a token hash) the traveler's feed: the traveler's record (KEYS[1]) names its token hash,
 * and the token's record (ARGV[3] .. hash) names the traveler; the earlier token's record goes.
 */
const ENABLE_SCRIPT = `
local previous = redis.call('HGET', KEYS[1], 'tokenHash')
if previous then redis.call('DEL', ARGV[3] .. previous) end
redis.call('HSET', KEYS[1], 'tokenHash', ARGV[1], 'createdAt', ARGV[2])
redis.call('HSET', ARGV[3] .. ARGV[1], 'travelerId', ARGV[4], 'createdAt', ARGV[2])
return 1
`;

const DISABLE_SCRIPT = `
local previous = redis.call('HGET', KEYS[1], 'tokenHash')
if not previous then return 0 end
redis.call('DEL', ARGV[1] .. previous)
redis.call('DEL', KEYS[1])
return 1
`;

/**
 * The sequences of ARGV (uid, fingerprint pairs) in the traveler's hash KEYS[1] (uid -> "sequence fingerprint"):
 * 0 for a new uid, one more for a changed fingerprint; answered in ARGV's order.
 */
const SEQUENCES_SCRIPT = `
local answer = {}
for index = 1, #ARGV, 2 do
  local uid, fingerprint = ARGV[index], ARGV[index + 1]
  local stored = redis.call('HGET', KEYS[1], uid)
  local sequence = 0
  if stored then
    local space = string.find(stored, ' ', 1, true)
    sequence = tonumber(string.sub(stored, 1, space - 1))
    if string.sub(stored, space + 1) ~= fingerprint then sequence = sequence + 1 end
  end
  redis.call('HSET', KEYS[1], uid, sequence .. ' ' .. fingerprint)
  answer[#answer + 1] = sequence
end
return answer
`;

/** Calendar feeds shared by the fleet: a hash per traveler and one per token hash, kept consistent by scripts. */
export class RedisCalendarFeedStore implements CalendarFeedStore {
  readonly #redis: SharedRedis;

  constructor(redis: SharedRedis) {
    this.#redis = redis;
  }

  enable(travelerId: string, tokenHash: string, createdAt: string): Promise<void> {
    return withRedis(async () => {
      await this.#redis.client.eval(
        ENABLE_SCRIPT,
        1,
        this.#travelerKey(travelerId),
        tokenHash,
        createdAt,
        this.#tokenKey(''),
        travelerId,
      );
    });
  }

  disable(travelerId: string): Promise<boolean> {
    return withRedis(async () => {
      const removed = await this.#redis.client.eval(
        DISABLE_SCRIPT,
        1,
        this.#travelerKey(travelerId),
        this.#tokenKey(''),
      );
      return removed === 1;
    });
  }

  findByTokenHash(tokenHash: string): Promise<CalendarFeed | undefined> {
    return withRedis(async () => {
      const { travelerId, createdAt } = await this.#redis.client.hgetall(this.#tokenKey(tokenHash));
      return travelerId && createdAt ? { travelerId, createdAt } : undefined;
    });
  }

  findByTraveler(travelerId: string): Promise<CalendarFeed | undefined> {
    return withRedis(async () => {
      const { createdAt } = await this.#redis.client.hgetall(this.#travelerKey(travelerId));
      return createdAt ? { travelerId, createdAt } : undefined;
    });
  }

  sequences(travelerId: string, revisions: readonly EventRevision[]): Promise<Map<string, number>> {
    if (revisions.length === 0) return Promise.resolve(new Map<string, number>());
    return withRedis(async () => {
      const answer = (await this.#redis.client.eval(
        SEQUENCES_SCRIPT,
        1,
        this.#redis.key('calendar-sequences', travelerId),
        ...revisions.flatMap(({ uid, fingerprint }) => [uid, fingerprint]),
      )) as number[];
      return new Map<string, number>(revisions.map(({ uid }, index) => [uid, Number(answer[index])]));
    });
  }

  /** The connection belongs to the app. */
  close(): void {}

  #travelerKey(travelerId: string): string {
    return this.#redis.key('calendar-feed', travelerId);
  }

  #tokenKey(tokenHash: string): string {
    return this.#redis.key('calendar-feed-token', tokenHash);
  }
}
