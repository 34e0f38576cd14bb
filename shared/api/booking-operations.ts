// The booking operations of the travel API contract that reach the SPA unchanged through the BFF.
export {
  BookingConflictDetailSchema,
  BookingDetailsSchema,
  BookingTravelerSchema,
  CreateBookingRequestSchema,
  IdempotencyKeySchema,
  PaymentMethodListSchema,
  PriceCheckSchema,
} from '../upstream/booking-operations.ts';
export type {
  BookingConflictDetail,
  BookingDetails,
  BookingTraveler,
  CancellationTerms,
  CreateBookingRequest,
  PaymentMethod,
  PriceCheck,
} from '../upstream/booking-operations.ts';
