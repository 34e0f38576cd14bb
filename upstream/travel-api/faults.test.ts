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

  it('tells a client to retry a down provider when it is back: the time left of a timed fault, at most 30 s', () => {
    vi.useFakeTimers();
    const faults = new FaultRegistry();
    faults.set({ providerDown: true, durationSeconds: 6 });
    const flight = faults.providerDownError('flight');
    expect(flight.statusCode).toBe(503);
    expect(flight.envelope.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The flight provider is not answering',
      recoveryAction: 'RETRY_LATER',
      retryAfterSeconds: 6,
    });
    vi.advanceTimersByTime(4_500);
    expect(faults.providerDownError('hotel').envelope.error).toMatchObject({
      message: 'The hotel provider is not answering',
      retryAfterSeconds: 2,
    });
    faults.set({ providerDown: true, durationSeconds: 600 });
    expect(faults.providerDownError('hotel').envelope.error.retryAfterSeconds).toBe(30);
    faults.set({ providerDown: true });
    expect(faults.providerDownError('hotel').envelope.error.retryAfterSeconds).toBe(30);
    faults.dispose();
  });

  it('adds a traveler’s own faults to everyone’s for that traveler alone, and reverts them in time', () => {
    vi.useFakeTimers();
    const faults = new FaultRegistry();
    faults.set({ rateLimitMax: 50 });
    faults.setFor('sam', { providerDown: true, rateLimitMax: 2, durationSeconds: 8 });
    expect(faults.for('sam')).toMatchObject({ providerDown: true, rateLimitMax: 2 });
    expect(faults.for('alex')).toMatchObject({ providerDown: false, rateLimitMax: 50 });
    expect(faults.for(undefined)).toEqual(faults.current);
    expect(faults.rateLimitEpoch('sam')).not.toBe(faults.rateLimitEpoch('alex'));
    expect(faults.providerDownError('hotel', 'sam').envelope.error.retryAfterSeconds).toBe(8);

    vi.advanceTimersByTime(8_000);
    expect(faults.for('sam')).toMatchObject({ providerDown: false, rateLimitMax: 50 });
    faults.dispose();
  });
});
