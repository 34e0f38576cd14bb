import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reconnectDelay } from './reconnect-delay.ts';

describe('reconnectDelay', () => {
  it('stays within [d/2, d] of the capped exponential delay for any attempt and jitter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        (attempt, r) => {
          const delay = reconnectDelay(attempt, { baseMs: 1000, capMs: 30_000, random: () => r });
          const ceiling = Math.min(30_000, 1000 * 2 ** attempt);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });

  it('never reconnects in a zero-delay loop, even with a zero retry hint', () => {
    expect(
      reconnectDelay(0, { baseMs: 1000, capMs: 30_000, retryHintMs: 0, random: () => 0 }),
    ).toBeGreaterThan(0);
  });

  it('starts from the upstream retry hint when one was sent', () => {
    expect(reconnectDelay(0, { baseMs: 1000, capMs: 30_000, retryHintMs: 5000, random: () => 0 })).toBe(2500);
  });
});
