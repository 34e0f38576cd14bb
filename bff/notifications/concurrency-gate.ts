export interface ConcurrencyGateOptions {
  /**
   * The longest a holder keeps its place: after that the place goes to the next in line even if the
   * holder has not left (its leave then frees nothing). A holder stuck on a call that is never answered
   * holds up the others this long at most, not for the call's whole timeout.
   */
  turnMs?: number | undefined;
}

/**
 * At most `limit` holders at a time; the others wait their turn, in the order they came. The hub's
 * readers pass through one gate to open and catch up their upstream streams, so that every traveler's
 * stream reopening at once (a travel API restart, an instance taking over a fleet's leases) is worked
 * through a few at a time: the first travelers are live again soon, and the travel API meets a steady
 * stream of opens instead of thousands at once (docs/benchmarks.md, "Every stream at once").
 */
export class ConcurrencyGate {
  readonly #limit: number;
  readonly #turnMs: number | undefined;
  #held = 0;
  readonly #waiting = new Set<() => void>();

  constructor(limit: number, options: ConcurrencyGateOptions = {}) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    const { turnMs } = options;
    if (turnMs !== undefined && !(Number.isFinite(turnMs) && turnMs > 0))
      throw new RangeError('turnMs must be a positive number of milliseconds');
    this.#limit = limit;
    this.#turnMs = turnMs;
  }

  /** Holders now. */
  get held(): number {
    return this.#held;
  }

  /** Waiting for a place now. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /**
   * Resolves with `leave` (idempotent) once a place is the caller's; rejects with the signal's reason
   * if the signal aborts first, giving up the turn.
   */
  enter(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.#held < this.#limit) {
      this.#held += 1;
      return Promise.resolve(this.#leave());
    }
    return new Promise((resolve, reject) => {
      const admit = () => {
        signal?.removeEventListener('abort', aborted);
        this.#held += 1;
        resolve(this.#leave());
      };
      const aborted = () => {
        this.#waiting.delete(admit);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', aborted, { once: true });
      this.#waiting.add(admit);
    });
  }

  #leave(): () => void {
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      if (turn !== undefined) clearTimeout(turn);
      this.#held -= 1;
      const next = this.#waiting.values().next();
      if (next.done) return;
      this.#waiting.delete(next.value);
      next.value();
    };
    const turn = this.#turnMs === undefined ? undefined : setTimeout(leave, this.#turnMs);
    turn?.unref();
    return leave;
  }
}
