import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { StreamPools } from './stream-pools.ts';

/** Pools whose dispatchers are numbered stand-ins, made on demand. */
function numberedPools(perPool: number) {
  let made = 0;
  const pools = new StreamPools(() => ({ number: (made += 1) }) as unknown as Dispatcher, perPool);
  const numberOf = (dispatcher: Dispatcher) => (dispatcher as unknown as { number: number }).number;
  return { pools, numberOf, made: () => made };
}

describe('the pools of the travel API event streams', () => {
  it('fills one pool up to its share of streams before it makes the next', () => {
    const { pools, numberOf, made } = numberedPools(3);
    const leases = Array.from({ length: 7 }, () => pools.take());
    expect(leases.map((lease) => numberOf(lease.dispatcher))).toEqual([1, 1, 1, 2, 2, 2, 3]);
    expect(made()).toBe(3);
    expect(pools.dispatchers.map(numberOf)).toEqual([1, 2, 3]);
  });

  it('gives a released place to the next stream, in the first pool with room, and makes no pool more', () => {
    const { pools, numberOf, made } = numberedPools(2);
    const [first, , third] = [pools.take(), pools.take(), pools.take()];
    first?.release();
    third?.release();
    expect(numberOf(pools.take().dispatcher)).toBe(1);
    expect(numberOf(pools.take().dispatcher)).toBe(2);
    expect(made()).toBe(2);
  });

  it('counts a stream out once however often its end is reported', () => {
    const { pools, numberOf } = numberedPools(2);
    const first = pools.take();
    pools.take();
    // The body's close and a failed request may both report the end of the same stream.
    first.release();
    first.release();
    expect(numberOf(pools.take().dispatcher)).toBe(1);
    expect(numberOf(pools.take().dispatcher)).toBe(2);
  });
});
