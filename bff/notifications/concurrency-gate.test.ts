import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from './concurrency-gate.ts';

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

  it('takes a positive whole limit only', () => {
    expect(() => new ConcurrencyGate(0)).toThrow(RangeError);
    expect(() => new ConcurrencyGate(1.5)).toThrow(RangeError);
  });
});
