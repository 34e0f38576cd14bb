import { afterEach, describe, expect, it, vi } from 'vitest';
import { FaultRegistry, NO_FAULTS } from './faults.ts';

afterEach(() => vi.useRealTimers());

describe('fault registry', () => {
  it('merges patches and clears them all', () => {
    const faults = new FaultRegistry({ latencyMs: 10 });
    faults.set({ providerDown: true });
    expect(faults.current).toMatchObject({ latencyMs: 10, providerDown: true });
    expect(faults.clear()).toEqual(NO_FAULTS);
  });

  it('reverts a timed patch when it runs out, but not a fault changed again since', () => {
    vi.useFakeTimers();
    const faults = new FaultRegistry();
    faults.set({ providerDown: true, latencyMs: 50, durationSeconds: 10 });
    faults.set({ latencyMs: 75 });
    vi.advanceTimersByTime(10_000);
    expect(faults.current.providerDown).toBe(false);
    expect(faults.current.latencyMs).toBe(75);
    faults.dispose();
  });
});
