import { z } from 'zod';
import { plainText } from '../plain-text.ts';
import { BookingSchema } from './bookings.ts';
import { BaggageSchema, FlightOfferLegSchema, MoneySchema } from './flights.ts';
import { DueAtPropertySchema, StayCancellationSchema, StayRoomSchema } from './stays.ts';

/**
 * Additive /v1 booking operations: re-price an offer or a rate, the traveler's payment methods on file,
 * create a booking with an Idempotency-Key, read it, cancel it by its rate's rules.
 */

/** Kinds of offer a booking is made from: a flight offer (offerId) or a stay rate (fareId). */
export const OFFER_KINDS = ['flight', 'stay'] as const;

export const OfferParamsSchema = z.object({ offerId: z.uuid() });

/** POST /v1/offers/:offerId/price-check: the offer's price now, against the price it was quoted at. */
export const PRICE_CHECK_STATUSES = ['unchanged', 'changed'] as const;
export const PriceCheckSchema = z.looseObject({
  offerId: z.uuid(),
  kind: z.string(),
  status: z.string(),
  /** The price the offer was shown at (or last checked at). */
  previousPrice: MoneySchema,
  /** The price a booking made now pays. */
  price: MoneySchema,
  expiresAt: z.iso.datetime(),
});
export type PriceCheck = z.infer<typeof PriceCheckSchema>;

/** A payment method on file, held by the service; only a reference and what a traveler recognises. */
export const PaymentMethodSchema = z.looseObject({
  paymentMethodId: z.string(),
  type: z.string(),
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  expiryMonth: z.number().int().min(1).max(12),
  expiryYear: z.number().int(),
  holderName: z.string(),
  /** true: a personal card, for personal travel; false: a company card, for business travel. */
  bookingProfile: z.boolean(),
  label: z.string(),
});
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

/** GET /v1/me/payment-methods: every method on file, or those of one travel kind. */
export const PaymentMethodsQuerySchema = z.object({
  bookingProfile: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});
export const PaymentMethodListSchema = z.looseObject({ items: z.array(PaymentMethodSchema) });
export type PaymentMethodList = z.infer<typeof PaymentMethodListSchema>;

/** Who travels, as the booking names them (from the profile, corrected by the traveler). */
export const BookingTravelerSchema = z.object({
  name: plainText().trim().min(1).max(120),
  email: plainText().pipe(z.email().max(254)),
  phone: plainText()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,24}$/, 'Expected a phone number such as +44 20 7946 0000')
    .nullable()
    .default(null),
});
export type BookingTraveler = z.output<typeof BookingTravelerSchema>;

/** The Idempotency-Key header of POST /v1/bookings: the same key and body give the same booking. */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{8,255}$/, 'Expected 8 to 255 letters, digits or _ . : -');

/** Body of POST /v1/bookings. `price` is the price the traveler agreed to (the last price check's). */
export const CreateBookingRequestSchema = z.object({
  offerId: z.uuid(),
  price: z.object({ amount: z.number().nonnegative(), currency: z.string().regex(/^[A-Z]{3}$/) }),
  paymentMethodId: plainText().min(1).max(64),
  traveler: BookingTravelerSchema,
  /** true: personal travel, false: business; a stay rate's own profile wins, else the traveler's default. */
  bookingProfile: z.boolean().optional(),
  /** The traveler's trip the booking joins (a replacement for one of its segments); by default the trip its dates overlap. */
  tripId: z.uuid().optional(),
  /**
   * The traveler's booking this one replaces (a rebooking): its confirmation says so, and cancelling the
   * replaced booking afterwards sends no notification of its own.
   */
  replacesBookingId: z.uuid().optional(),
});
export type CreateBookingRequest = z.input<typeof CreateBookingRequestSchema>;

export const BookingParamsSchema = z.object({ bookingId: z.uuid() });
export const IdempotencyKeyParamsSchema = z.object({ idempotencyKey: IdempotencyKeySchema });

/** What cancelling gives back and keeps, in the booking's currency. */
export const CancellationTermsSchema = z.looseObject({
  refund: MoneySchema,
  fee: MoneySchema,
  /** Until when cancelling is free (UTC); null when it never is or no longer is. */
  freeUntil: z.iso.datetime().nullable(),
});
export type CancellationTerms = z.infer<typeof CancellationTermsSchema>;

export const BookedFlightSchema = z.looseObject({
  legs: z.array(FlightOfferLegSchema).min(1),
  cabinClass: z.string(),
  fareConditions: z.looseObject({ refundable: z.boolean(), changeable: z.boolean() }),
  baggage: BaggageSchema,
});

export const BookedStaySchema = z.looseObject({
  propertyId: z.uuid(),
  propertyName: z.string(),
  address: z.string(),
  city: z.string(),
  countryCode: z.string(),
  timeZone: z.string(),
  checkIn: z.iso.date(),
  checkOut: z.iso.date(),
  nights: z.number().int().min(1),
  rooms: z.array(StayRoomSchema),
  roomName: z.string(),
  bedType: z.string(),
  board: z.string(),
  cancellation: StayCancellationSchema,
  dueAtProperty: DueAtPropertySchema,
});

/**
 * GET /v1/bookings/:bookingId (and the answers of create and cancel): the booking with what was booked.
 * Bookings made before these operations existed have null details and cannot be cancelled online.
 */
export const BookingDetailsSchema = BookingSchema.extend({
  offerId: z.uuid().nullable(),
  traveler: z.looseObject({ name: z.string(), email: z.string(), phone: z.string().nullable() }).nullable(),
  paymentMethod: z
    .looseObject({ paymentMethodId: z.string(), brand: z.string(), last4: z.string(), label: z.string() })
    .nullable(),
  flight: BookedFlightSchema.nullable(),
  stay: BookedStaySchema.nullable(),
  /** What cancelling now would give; null when the booking cannot be cancelled (any more). */
  cancellationTerms: CancellationTermsSchema.nullable(),
  /** How it was cancelled; null while it stands. */
  cancellation: z
    .looseObject({ cancelledAt: z.iso.datetime(), refund: MoneySchema, fee: MoneySchema })
    .nullable(),
});
export type BookingDetails = z.infer<typeof BookingDetailsSchema>;

/**
 * The `reason` of a 409 BOOKING_CONFLICT (shared/upstream/error-envelope.ts, ErrorReasonSchema): why the
 * booking clashes, and with which booking of the traveler's, so that a client tells the reason in its own
 * language rather than quoting `message`. `same_flight` names the flight and its local departure date;
 * `overlapping_stay` the hotel and its dates; `provider_conflict` (held by the provider) names nothing more.
 */
export const BookingConflictReasonSchema = z.looseObject({
  code: z.string(),
  reference: z.string().optional(),
  flightNumber: z.string().optional(),
  date: z.iso.date().optional(),
  hotel: z.string().optional(),
  checkIn: z.iso.date().optional(),
  checkOut: z.iso.date().optional(),
});
export type BookingConflictReason = z.infer<typeof BookingConflictReasonSchema>;

/** The `reason` of a 402 PAYMENT_DECLINED: the card the issuer declined. */
export const PaymentDeclinedReasonSchema = z.looseObject({
  code: z.literal('card_declined'),
  paymentMethodId: z.string(),
});
export type PaymentDeclinedReason = z.infer<typeof PaymentDeclinedReasonSchema>;

/** Admin levers of the booking operations, for one traveler, each used once by the next call it concerns. */
export const BOOKING_LEVERS = [
  'price-change',
  'offer-expired',
  'payment-decline',
  'booking-conflict',
  'cancel-failure',
] as const;
export type BookingLever = (typeof BOOKING_LEVERS)[number];
