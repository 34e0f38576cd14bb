import type { Dispatcher } from 'undici';

/**
 * Open event streams one pool holds at most. An undici pool's work on each new request (it looks through
 * its connections for a free one) and on each closed connection (it counts the connected ones) grows with
 * its connections: one per stream over HTTP/1.1. Over HTTP/2 a pool of this many streams still needs only
 * a few connections (up to 100 streams each).
 */
export const STREAMS_PER_POOL = 256;

/** A stream's place in a pool: its dispatcher, and `release` once the stream is over (idempotent). */
export interface StreamLease {
  readonly dispatcher: Dispatcher;
  release(): void;
}

/**
 * The connection pools of the travel API's event streams. Thousands of notification streams held in one
 * pool would make every stream opened, and every one closed, pay for all the others: when every
 * traveler's stream reopens at once (a travel API restart) that costs the square of their number
 * (`npm run bench -- sse --reconnect-only`). A stream goes to the first pool with fewer than
 * `perPool` open streams; a pool is made when all are full, and kept.
 */
export class StreamPools {
  readonly #make: () => Dispatcher;
  readonly #perPool: number;
  readonly #pools: { dispatcher: Dispatcher; open: number }[] = [];

  constructor(make: () => Dispatcher, perPool = STREAMS_PER_POOL) {
    this.#make = make;
    this.#perPool = perPool;
  }

  /** A pool for one more stream, counted in it until the lease is released. */
  take(): StreamLease {
    let pool = this.#pools.find((candidate) => candidate.open < this.#perPool);
    if (pool === undefined) {
      pool = { dispatcher: this.#make(), open: 0 };
      this.#pools.push(pool);
    }
    const taken = pool;
    taken.open += 1;
    let released = false;
    return {
      dispatcher: taken.dispatcher,
      release: () => {
        if (released) return;
        released = true;
        taken.open -= 1;
      },
    };
  }

  /** Every pool's dispatcher, for closing. */
  get dispatchers(): Dispatcher[] {
    return this.#pools.map((pool) => pool.dispatcher);
  }
}
