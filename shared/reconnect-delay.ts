export interface ReconnectDelayOptions {
  /** First delay; the upstream's `retry:` hint replaces it when one was sent. */
  baseMs: number;
  /** No delay is ever longer than this. */
  capMs: number;
  /** The upstream's last `retry:` value in milliseconds, if any. */
  retryHintMs?: number | undefined;
  /** Injectable for tests; returns a number in [0, 1). */
  random?: () => number;
}

/**
 * Capped exponential back-off with "equal jitter": the delay for attempt n (0-based) lies in
 * [d/2, d) where d = min(cap, base * 2^n). Half the delay is guaranteed, so a crowd of reconnecting
 * clients never retries in a zero-delay loop; the other half spreads them out.
 */
export function reconnectDelay(attempt: number, options: ReconnectDelayOptions): number {
  const random = options.random ?? Math.random;
  const base = Math.max(1, options.retryHintMs ?? options.baseMs);
  const ceiling = Math.min(options.capMs, base * 2 ** Math.min(Math.max(attempt, 0), 30));
  const half = ceiling / 2;
  return Math.round(half + random() * half);
}
