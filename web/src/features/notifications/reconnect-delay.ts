const BASE_MS = 1_000;
const CAP_MS = 30_000;

/**
 * Wait before reconnect attempt `failures` (1, 2, ...): the server's `retry` advice when it gave one,
 * otherwise capped exponential back-off with full jitter, so many tabs do not return in step.
 */
export function nextReconnectDelay(failures: number, advisedMs?: number, random: () => number = Math.random) {
  if (advisedMs !== undefined) return Math.min(advisedMs, CAP_MS);
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(BASE_MS / 2 + random() * (ceiling - BASE_MS / 2));
}
