// The booking operations of the travel API contract that reach the SPA unchanged through the BFF.
export {
  BookingConflictReasonSchema,
  BookingDetailsSchema,
  BookingTravelerSchema,
  CreateBookingRequestSchema,
  IdempotencyKeySchema,
  PaymentDeclinedReasonSchema,
  PaymentMethodListSchema,
  PriceCheckSchema,
} from '../upstream/booking-operations.ts';
export type {
  BookingConflictReason,
  BookingDetails,
  BookingTraveler,
  CancellationTerms,
  CreateBookingRequest,
  PaymentDeclinedReason,
  PaymentMethod,
  PriceCheck,
} from '../upstream/booking-operations.ts';
