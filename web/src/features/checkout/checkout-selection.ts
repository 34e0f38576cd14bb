import type { FlightOffer } from '#shared/api/flights.ts';
import type { StayFare, StayRoom } from '#shared/api/stays.ts';

/** What the traveler chose to book, kept for the checkout (and a reload of it) in this tab only. */
export type CheckoutSelection =
  | { kind: 'flight'; offer: FlightOffer; returnTo: string }
  | {
      kind: 'stay';
      fare: StayFare;
      hotelName: string;
      checkIn: string;
      checkOut: string;
      rooms: StayRoom[];
      bookingProfile: boolean;
      returnTo: string;
    };

const PREFIX = 'wayfare:checkout:';

export function offerIdOf(selection: CheckoutSelection): string {
  return selection.kind === 'flight' ? selection.offer.offerId : selection.fare.fareId;
}

export function saveSelection(selection: CheckoutSelection): string {
  const offerId = offerIdOf(selection);
  sessionStorage.setItem(`${PREFIX}${offerId}`, JSON.stringify(selection));
  return offerId;
}

export function loadSelection(offerId: string): CheckoutSelection | null {
  const text = sessionStorage.getItem(`${PREFIX}${offerId}`);
  if (!text) return null;
  try {
    return JSON.parse(text) as CheckoutSelection;
  } catch {
    return null;
  }
}

export function forgetSelection(offerId: string): void {
  sessionStorage.removeItem(`${PREFIX}${offerId}`);
  sessionStorage.removeItem(`${PREFIX}${offerId}:attempt`);
}

/**
 * The Idempotency-Key of a booking attempt: the same while what is submitted stays the same (a retried,
 * double-clicked or reconnected submit, also after a reload), a new one as soon as the traveler changes
 * anything (another card, corrected details, an accepted new price).
 */
export function attemptKey(offerId: string, content: string): string {
  const storageKey = `${PREFIX}${offerId}:attempt`;
  const saved = sessionStorage.getItem(storageKey);
  if (saved) {
    const [savedContent, key] = JSON.parse(saved) as [string, string];
    if (savedContent === content) return key;
  }
  const key = crypto.randomUUID();
  sessionStorage.setItem(storageKey, JSON.stringify([content, key]));
  return key;
}
