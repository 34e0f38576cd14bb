import { z } from 'zod';
import { plainText } from '../plain-text.ts';
import { BookingDetailsSchema } from '../upstream/booking-operations.ts';

/**
 * POST /api/rebookings (the BFF's own operation, under an Idempotency-Key): replace a booking with a flight
 * chosen from a search, in one step: check the price, book the new flight with the payment on file, then
 * cancel the booking it replaces by its fare rules.
 */
export const RebookingRequestSchema = z.object({
  /** The booking being replaced. */
  bookingId: z.uuid(),
  /** The chosen flight offer. */
  offerId: z.uuid(),
  /** The price the traveler was shown and agreed to. */
  price: z.object({ amount: z.number().nonnegative(), currency: z.string().regex(/^[A-Z]{3}$/) }),
  /** The card to pay with; by default the one the replaced booking was paid with, else the first on file. */
  paymentMethodId: plainText().min(1).max(64).optional(),
});
export type RebookingRequest = z.input<typeof RebookingRequestSchema>;

/**
 * completed: the new flight is booked and the old booking cancelled. cancel-pending: the new flight is
 * booked, the old booking still stands and its cancel is being retried. needs-support: the new flight is
 * booked and the old booking could not be cancelled online.
 */
export const REBOOKING_STATES = ['completed', 'cancel-pending', 'needs-support'] as const;
export type RebookingState = (typeof REBOOKING_STATES)[number];

export const RebookingSchema = z.object({
  state: z.enum(REBOOKING_STATES),
  newBooking: BookingDetailsSchema,
  /** The replaced booking as it stands now: cancelled with its refund, or still confirmed. */
  oldBooking: BookingDetailsSchema,
  /** Cancels of the old booking tried so far. */
  cancelAttempts: z.number().int().min(0),
});
export type Rebooking = z.infer<typeof RebookingSchema>;
