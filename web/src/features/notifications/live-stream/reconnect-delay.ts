import { reconnectDelay } from '#shared/reconnect-delay.ts';

const BASE_MS = 1_000;
const CAP_MS = 30_000;

/**
 * Wait before reconnect attempt `failures` (1, 2, ...): the server's `retry` advice when it gave one (the
 * BFF spreads its own restarts that way), otherwise the project's one back-off (shared/reconnect-delay.ts):
 * capped exponential with equal jitter, so many tabs do not return in step.
 */
export function nextReconnectDelay(failures: number, advisedMs?: number, random: () => number = Math.random) {
  if (advisedMs !== undefined) return Math.min(advisedMs, CAP_MS);
  return reconnectDelay(failures - 1, { baseMs: BASE_MS, capMs: CAP_MS, random });
}
