import type { BffError } from '../../../lib/bff-error.ts';

/**
 * The longest stay the provider prices, from a MAX_NIGHTS_EXCEEDED error: a numeric field when the
 * envelope carries one, else the number the spec says the message states. Only read for display.
 */
export function maxNightsOf(error: BffError | null): number | undefined {
  if (!error) return undefined;
  const body = error.body as Record<string, unknown>;
  for (const key of ['maxNights', 'maximumNights']) {
    const value = body[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  const found = /(\d+)/.exec(error.body.message);
  const parsed = found?.[1] ? Number(found[1]) : undefined;
  return parsed && parsed > 0 ? parsed : undefined;
}
