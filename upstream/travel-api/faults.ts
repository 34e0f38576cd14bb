import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ApiError } from './api-error.ts';

/** Faults that tests and demos inject through the admin API or TRAVEL_API_FAULTS. */
export const FaultsSchema = z.strictObject({
  /** Provider-backed operations (flight search, stays) answer 503 SERVICE_UNAVAILABLE. */
  providerDown: z.boolean(),
  /** Stay streams end with `event: error` PROVIDER_ERROR after their first event. */
  providerErrorMidStream: z.boolean(),
  /** Added to every /v1 response before it is sent, and between streamed events. */
  latencyMs: z.number().int().min(0).max(60_000),
  /** Streams close without `done` after this many events; null leaves them alone. */
  dropStreamAfterEvents: z.number().int().min(0).nullable(),
  /** Share (0..1) of new notifications persisted but not sent live: the spec's multi-worker gap. */
  multiWorkerGapShare: z.number().min(0).max(1),
  /** Reading the consumer registry fails: 503 SERVICE_UNAVAILABLE on every signed request. */
  registryReadFailure: z.boolean(),
  /** The notification fan-out is starting: its stream answers 503. */
  startupInProgress: z.boolean(),
  /** Every search-stream identifier counts as expired: stay fares answer 410 OFFER_EXPIRED. */
  offersExpired: z.boolean(),
  /** Overrides TRAVEL_API_RATE_LIMIT_MAX (and the search quota) while set. */
  rateLimitMax: z.number().int().positive().nullable(),
  /** Overrides TRAVEL_API_RATE_LIMIT_WINDOW_SECONDS while set. */
  rateLimitWindowSeconds: z.number().int().positive().nullable(),
});
export type Faults = z.infer<typeof FaultsSchema>;

export const NO_FAULTS: Readonly<Faults> = Object.freeze({
  providerDown: false,
  providerErrorMidStream: false,
  latencyMs: 0,
  dropStreamAfterEvents: null,
  multiWorkerGapShare: 0,
  registryReadFailure: false,
  startupInProgress: false,
  offersExpired: false,
  rateLimitMax: null,
  rateLimitWindowSeconds: null,
});

/** Body of PUT /admin/faults: the faults to change, optionally only for a while. */
export const FaultPatchSchema = FaultsSchema.partial().extend({
  durationSeconds: z.number().int().positive().max(86_400).optional(),
});
export type FaultPatch = z.infer<typeof FaultPatchSchema>;

const isRateLimitLever = (key: keyof Faults) => key === 'rateLimitMax' || key === 'rateLimitWindowSeconds';

/**
 * The faults in force. A patch with a duration reverts exactly the faults it set when it runs out,
 * unless a later patch changed them again.
 */
export class FaultRegistry {
  #faults: Faults;
  #generation = new Map<keyof Faults, number>();
  /** When each fault set for a while reverts (epoch ms). */
  #until = new Map<keyof Faults, number>();
  #timers = new Set<NodeJS.Timeout>();
  #counter = 0;
  #rateLimitEpoch = 0;

  constructor(initial: Partial<Faults> = {}) {
    this.#faults = { ...NO_FAULTS, ...initial };
  }

  get current(): Readonly<Faults> {
    return this.#faults;
  }

  /**
   * Moves on each time the rate-limit lever (rateLimitMax, rateLimitWindowSeconds) is set, cleared or
   * runs out, so that the quotas start fresh windows then instead of carrying counts from before.
   */
  get rateLimitEpoch(): number {
    return this.#rateLimitEpoch;
  }

  set({ durationSeconds, ...patch }: FaultPatch): Readonly<Faults> {
    const generation = ++this.#counter;
    const keys = Object.keys(patch) as (keyof Faults)[];
    this.#faults = { ...this.#faults, ...patch };
    if (keys.some(isRateLimitLever)) this.#rateLimitEpoch += 1;
    for (const key of keys) {
      this.#generation.set(key, generation);
      if (durationSeconds === undefined) this.#until.delete(key);
      else this.#until.set(key, Date.now() + durationSeconds * 1000);
    }
    if (durationSeconds !== undefined) {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        const reverted: Partial<Record<keyof Faults, unknown>> = {};
        for (const key of keys) {
          if (this.#generation.get(key) === generation) {
            reverted[key] = NO_FAULTS[key];
            this.#until.delete(key);
          }
        }
        this.#faults = { ...this.#faults, ...(reverted as Partial<Faults>) };
        if ((Object.keys(reverted) as (keyof Faults)[]).some(isRateLimitLever)) this.#rateLimitEpoch += 1;
      }, durationSeconds * 1000);
      timer.unref();
      this.#timers.add(timer);
    }
    return this.#faults;
  }

  clear(): Readonly<Faults> {
    this.dispose();
    this.#faults = { ...NO_FAULTS };
    this.#rateLimitEpoch += 1;
    this.#generation.clear();
    this.#until.clear();
    return this.#faults;
  }

  /**
   * What a provider-backed operation answers while providerDown is set: 503 naming the provider, to be
   * retried when a timed fault reverts (so the first retry can succeed), after at most 30 s.
   */
  providerDownError(provider: 'flight' | 'hotel'): ApiError {
    const until = this.#until.get('providerDown');
    const retryAfterSeconds =
      until === undefined ? 30 : Math.min(30, Math.max(1, Math.ceil((until - Date.now()) / 1000)));
    return new ApiError('SERVICE_UNAVAILABLE', {
      message: `The ${provider} provider is not answering`,
      recoveryAction: 'RETRY_LATER',
      retryAfterSeconds,
    });
  }

  /** Waits for the injected latency, if any. */
  async delay(signal?: AbortSignal): Promise<void> {
    const ms = this.#faults.latencyMs;
    if (ms > 0) await sleep(ms, undefined, { signal });
  }

  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
