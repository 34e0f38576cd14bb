import type { BookingLever } from '#shared/upstream/booking-operations.ts';

/**
 * Levers of the admin API for demos and tests, per traveler: each armed lever is used up by the next
 * call it concerns (a price check, a payment, a booking), so one traveler's demo never touches another's.
 */
export class BookingLevers {
  readonly #armed = new Map<string, Set<BookingLever>>();

  arm(travelerId: string, lever: BookingLever): void {
    const levers = this.#armed.get(travelerId) ?? new Set();
    levers.add(lever);
    this.#armed.set(travelerId, levers);
  }

  /** Whether the lever was armed for the traveler; disarms it. */
  take(travelerId: string, lever: BookingLever): boolean {
    const levers = this.#armed.get(travelerId);
    if (!levers?.delete(lever)) return false;
    if (levers.size === 0) this.#armed.delete(travelerId);
    return true;
  }

  armed(travelerId: string): BookingLever[] {
    return [...(this.#armed.get(travelerId) ?? [])];
  }

  clear(): void {
    this.#armed.clear();
  }
}
