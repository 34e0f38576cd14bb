import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ServiceError } from './service-error.ts';

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

const DurationSchema = z.number().int().positive().max(86_400);

/** Body of PUT /admin/faults: the faults to change, optionally only for a while. */
export const FaultPatchSchema = FaultsSchema.partial().extend({ durationSeconds: DurationSchema.optional() });
export type FaultPatch = z.infer<typeof FaultPatchSchema>;

/**
 * The faults one traveler can meet alone (the demo's levers): only that traveler's signed requests see
 * them, on top of everyone's.
 */
export const TravelerFaultsSchema = FaultsSchema.pick({
  providerDown: true,
  offersExpired: true,
  rateLimitMax: true,
  rateLimitWindowSeconds: true,
});
export type TravelerFaults = z.infer<typeof TravelerFaultsSchema>;

/** Body of PUT /admin/travelers/:travelerId/faults. */
export const TravelerFaultPatchSchema = TravelerFaultsSchema.partial()
  .extend({ durationSeconds: DurationSchema.optional() })
  .strict();
export type TravelerFaultPatch = z.infer<typeof TravelerFaultPatchSchema>;

const isRateLimitLever = (key: keyof Faults) => key === 'rateLimitMax' || key === 'rateLimitWindowSeconds';

/**
 * One set of faults (everyone's, or one traveler's). A patch with a duration reverts exactly the faults it
 * set when it runs out, unless a later patch changed them again.
 */
class FaultLayer {
  #faults: Faults;
  #generation = new Map<keyof Faults, number>();
  /** When each fault set for a while reverts (epoch ms). */
  #until = new Map<keyof Faults, number>();
  #timers = new Set<NodeJS.Timeout>();
  #counter = 0;
  #rateLimitEpoch = 0;
  readonly #nextEpoch: () => number;

  constructor(initial: Partial<Faults>, nextEpoch: () => number) {
    this.#faults = { ...NO_FAULTS, ...initial };
    this.#nextEpoch = nextEpoch;
  }

  get current(): Readonly<Faults> {
    return this.#faults;
  }

  get rateLimitEpoch(): number {
    return this.#rateLimitEpoch;
  }

  /** When a fault set for a while reverts (epoch ms); undefined when it is not timed. */
  until(key: keyof Faults): number | undefined {
    return this.#until.get(key);
  }

  set({ durationSeconds, ...patch }: FaultPatch): Readonly<Faults> {
    const generation = ++this.#counter;
    const keys = Object.keys(patch) as (keyof Faults)[];
    this.#faults = { ...this.#faults, ...patch };
    if (keys.some(isRateLimitLever)) this.#rateLimitEpoch = this.#nextEpoch();
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
        if ((Object.keys(reverted) as (keyof Faults)[]).some(isRateLimitLever))
          this.#rateLimitEpoch = this.#nextEpoch();
      }, durationSeconds * 1000);
      timer.unref();
      this.#timers.add(timer);
    }
    return this.#faults;
  }

  clear(): Readonly<Faults> {
    this.dispose();
    this.#faults = { ...NO_FAULTS };
    this.#rateLimitEpoch = this.#nextEpoch();
    this.#generation.clear();
    this.#until.clear();
    return this.#faults;
  }

  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}

/**
 * The faults in force: everyone's (PUT /admin/faults, for tests and operators) and, on top of them, each
 * traveler's own (PUT /admin/travelers/:travelerId/faults, the demo's levers), which only requests signed
 * for that traveler meet.
 */
export class FaultRegistry {
  #epochs = 0;
  readonly #nextEpoch = () => ++this.#epochs;
  readonly #everyone: FaultLayer;
  readonly #travelers = new Map<string, FaultLayer>();

  constructor(initial: Partial<Faults> = {}) {
    this.#everyone = new FaultLayer(initial, this.#nextEpoch);
  }

  /** Everyone's faults. */
  get current(): Readonly<Faults> {
    return this.#everyone.current;
  }

  /** The faults a request of this traveler meets (everyone's alone without a traveler). */
  for(travelerId: string | undefined): Readonly<Faults> {
    const everyone = this.#everyone.current;
    const own = travelerId === undefined ? undefined : this.#travelers.get(travelerId)?.current;
    if (!own) return everyone;
    return {
      ...everyone,
      providerDown: everyone.providerDown || own.providerDown,
      offersExpired: everyone.offersExpired || own.offersExpired,
      rateLimitMax: own.rateLimitMax ?? everyone.rateLimitMax,
      rateLimitWindowSeconds: own.rateLimitWindowSeconds ?? everyone.rateLimitWindowSeconds,
    };
  }

  /** The faults set for this traveler alone. */
  ownedBy(travelerId: string): TravelerFaults {
    const { providerDown, offersExpired, rateLimitMax, rateLimitWindowSeconds } =
      this.#travelers.get(travelerId)?.current ?? NO_FAULTS;
    return { providerDown, offersExpired, rateLimitMax, rateLimitWindowSeconds };
  }

  /**
   * Moves on each time a rate-limit lever (rateLimitMax, rateLimitWindowSeconds) that concerns the traveler
   * is set, cleared or runs out, so that their quotas start fresh windows then instead of carrying counts
   * from before.
   */
  rateLimitEpoch(travelerId?: string): string {
    const own = travelerId === undefined ? undefined : this.#travelers.get(travelerId);
    return `${this.#everyone.rateLimitEpoch}.${own?.rateLimitEpoch ?? 0}`;
  }

  set(patch: FaultPatch): Readonly<Faults> {
    return this.#everyone.set(patch);
  }

  /** Sets faults for one traveler's requests only; answers what is set for that traveler. */
  setFor(travelerId: string, patch: TravelerFaultPatch): TravelerFaults {
    let layer = this.#travelers.get(travelerId);
    if (!layer) {
      layer = new FaultLayer({}, this.#nextEpoch);
      this.#travelers.set(travelerId, layer);
    }
    layer.set(patch);
    return this.ownedBy(travelerId);
  }

  /** Clears everyone's faults and every traveler's. */
  clear(): Readonly<Faults> {
    for (const layer of this.#travelers.values()) layer.clear();
    return this.#everyone.clear();
  }

  /**
   * What a provider-backed operation answers while the provider is down for the traveler: 503 naming the
   * provider, to be retried when the timed faults that keep it down revert (so the first retry can
   * succeed), after at most 30 s.
   */
  providerDownError(provider: 'flight' | 'hotel', travelerId?: string): ServiceError {
    const own = travelerId === undefined ? undefined : this.#travelers.get(travelerId);
    const untils = [this.#everyone, own]
      .filter((layer) => layer?.current.providerDown === true)
      .map((layer) => layer?.until('providerDown'));
    const until =
      untils.length === 0 || untils.some((value) => value === undefined)
        ? undefined
        : Math.max(...(untils as number[]));
    const retryAfterSeconds =
      until === undefined ? 30 : Math.min(30, Math.max(1, Math.ceil((until - Date.now()) / 1000)));
    return new ServiceError('SERVICE_UNAVAILABLE', {
      message: `The ${provider} provider is not answering`,
      recoveryAction: 'RETRY_LATER',
      retryAfterSeconds,
    });
  }

  /** Waits for the injected latency, if any. */
  async delay(signal?: AbortSignal): Promise<void> {
    const ms = this.#everyone.current.latencyMs;
    if (ms > 0) await sleep(ms, undefined, { signal });
  }

  dispose(): void {
    this.#everyone.dispose();
    for (const layer of this.#travelers.values()) layer.dispose();
  }
}
