/** The travel API's default replay window (spec: Limits, timestamp skew). */
export const SIGNATURE_SKEW_WINDOW_SECONDS = 300;
/** The Date header has a resolution of one second, and the request took some time to travel. */
const DATE_HEADER_TOLERANCE_SECONDS = 5;

export interface ConsumerRejectionDiagnosis {
  /** Local clock minus the travel API's clock, in whole seconds; null without a usable Date header. */
  skewSeconds: number | null;
  cause: 'clock-skew' | 'secret' | 'unknown';
  summary: string;
}

/**
 * Why the travel API rejected our signature (401 CONSUMER_AUTH_REQUIRED): its Date header against the
 * local clock tells a stale timestamp (clock skew) from a secret it does not accept.
 */
export function diagnoseConsumerRejection(
  upstreamDate: string | undefined,
  localNowMs: number,
): ConsumerRejectionDiagnosis {
  const upstreamMs = upstreamDate === undefined ? Number.NaN : Date.parse(upstreamDate);
  if (Number.isNaN(upstreamMs)) {
    return {
      skewSeconds: null,
      cause: 'unknown',
      summary: 'no usable Date header to compare clocks; check the clock and the consumer secret',
    };
  }
  const skewSeconds = Math.round((localNowMs - upstreamMs) / 1000);
  if (Math.abs(skewSeconds) >= SIGNATURE_SKEW_WINDOW_SECONDS - DATE_HEADER_TOLERANCE_SECONDS) {
    const direction = skewSeconds > 0 ? 'ahead of' : 'behind';
    return {
      skewSeconds,
      cause: 'clock-skew',
      summary: `clock skew of ${skewSeconds} s (the local clock is ${direction} the travel API's; the window is ${SIGNATURE_SKEW_WINDOW_SECONDS} s)`,
    };
  }
  return {
    skewSeconds,
    cause: 'secret',
    summary: `secret rejected (wrong or rotated secret); clocks agree within ${Math.abs(skewSeconds)} s`,
  };
}
