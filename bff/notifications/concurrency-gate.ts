/**
 * At most `limit` holders at a time; the others wait their turn, in the order they came. The hub's
 * readers pass through one gate to open and catch up their upstream streams, so that every traveler's
 * stream reopening at once (a travel API restart, an instance taking over a fleet's leases) is worked
 * through a few at a time: the first travelers are live again soon, and the travel API meets a steady
 * stream of opens instead of thousands at once (docs/benchmarks.md, "Every stream at once").
 */
export class ConcurrencyGate {
  readonly #limit: number;
  #held = 0;
  readonly #waiting = new Set<() => void>();

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    this.#limit = limit;
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
    return () => {
      if (left) return;
      left = true;
      this.#held -= 1;
      const next = this.#waiting.values().next();
      if (next.done) return;
      this.#waiting.delete(next.value);
      next.value();
    };
  }
}
