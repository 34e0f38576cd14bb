import { vi } from 'vitest';
import type { FaultRegistry } from '../faults.ts';

export interface LatencyWait {
  /** Resolves when the service starts waiting out its injected latency. */
  reached: Promise<void>;
  /** Whether that wait is over. */
  over: () => boolean;
  /** Puts the registry back. */
  restore: () => void;
}

/**
 * Watches the next wait for the service's injected latency (`FaultRegistry.delay`, before an answer or a
 * stream's event), so that a test with fake timers knows when to move the clock and when the wait ends.
 */
export function watchLatencyWait(faults: FaultRegistry): LatencyWait {
  const delay = faults.delay.bind(faults);
  const reached = Promise.withResolvers<void>();
  let over = false;
  const spy = vi.spyOn(faults, 'delay').mockImplementationOnce(async (signal) => {
    reached.resolve();
    try {
      await delay(signal);
    } finally {
      over = true;
    }
  });
  return { reached: reached.promise, over: () => over, restore: () => spy.mockRestore() };
}
