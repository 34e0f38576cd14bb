import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConcurrencyGate } from './concurrency-gate.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('a concurrency gate', () => {
  it('lets in at most its limit, and the others in the order they came as places free up', async () => {
    const gate = new ConcurrencyGate(2);
    const admitted: string[] = [];
    const leaves = new Map<string, () => void>();
    const enter = (name: string) =>
      gate.enter().then((leave) => {
        admitted.push(name);
        leaves.set(name, leave);
      });
    const entries = ['a', 'b', 'c', 'd'].map(enter);
    await Promise.all(entries.slice(0, 2));
    expect(admitted).toEqual(['a', 'b']);
    expect([gate.held, gate.waiting]).toEqual([2, 2]);
    leaves.get('b')?.();
    leaves.get('b')?.(); // leaving twice frees one place only
    await entries[2];
    expect(admitted).toEqual(['a', 'b', 'c']);
    expect([gate.held, gate.waiting]).toEqual([2, 1]);
    leaves.get('a')?.();
    await entries[3];
    expect(admitted).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives up a waiting turn when its signal aborts, and refuses an aborted signal at once', async () => {
    const gate = new ConcurrencyGate(1);
    const leave = await gate.enter();
    const stop = new AbortController();
    const waiting = gate.enter(stop.signal);
    const after = gate.enter();
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(gate.waiting).toBe(1);
    leave();
    await expect(after).resolves.toBeTypeOf('function');
    await expect(gate.enter(stop.signal)).rejects.toThrow('stopped');
  });

  it('gives a place to the next in line once its holder has had it for a turn, and counts it once', async () => {
    vi.useFakeTimers();
    const gate = new ConcurrencyGate(1, { turnMs: 2_000 });
    const stuck = await gate.enter();
    let next: (() => void) | undefined;
    const waiting = gate.enter().then((leave) => (next = leave));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(next).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect([gate.held, gate.waiting]).toEqual([1, 0]);
    stuck(); // the stuck holder leaves at last: the place it held was given on already
    expect(gate.held).toBe(1);
    next?.();
    expect(gate.held).toBe(0);
    // A holder that leaves within its turn is not timed out later.
    const quick = await gate.enter();
    quick();
    await vi.advanceTimersByTimeAsync(1_000);
    const after = await gate.enter();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(gate.held).toBe(1);
    after();
    expect(gate.held).toBe(0);
  });

  it('takes a positive whole limit only, and a positive turn', () => {
    expect(() => new ConcurrencyGate(0)).toThrow(RangeError);
    expect(() => new ConcurrencyGate(1.5)).toThrow(RangeError);
    expect(() => new ConcurrencyGate(1, { turnMs: 0 })).toThrow(RangeError);
    expect(() => new ConcurrencyGate(1, { turnMs: Number.NaN })).toThrow(RangeError);
  });
});
