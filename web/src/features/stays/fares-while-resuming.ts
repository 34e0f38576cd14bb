import type { StayFare } from '#shared/api/stays.ts';

/**
 * The rates to show while a resumed stream sends a property's rates again: this stream's, then those
 * shown before the cut that it has not sent (yet), by `fareId`. Nothing shown goes away before the new
 * stream's end says what the rates are.
 */
export function faresWhileResuming(fresh: readonly StayFare[], carried: readonly StayFare[]): StayFare[] {
  const sent = new Set(fresh.map((fare) => fare.fareId));
  return [...fresh, ...carried.filter((fare) => !sent.has(fare.fareId))];
}
