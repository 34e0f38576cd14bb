import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type {
  BookingConflictReason,
  BookingDetails,
  BookingTraveler,
  CancellationTerms,
  PaymentDeclinedReason,
  PaymentMethod,
  PriceCheck,
} from '#shared/upstream/booking-operations.ts';
import type { Booking } from '#shared/upstream/bookings.ts';
import type { ErrorEnvelope } from '#shared/upstream/error-envelope.ts';
import type { Money } from '#shared/upstream/flights.ts';
import { ServiceError } from '../service-error.ts';
import { applyMigrations, transaction, type Migration } from '../db.ts';
import type { FaultRegistry } from '../faults.ts';
import { roundToMinorUnit } from '../money.ts';
import type { NotificationCenter, NotificationDraft } from '../notifications/notification-center.ts';
import type { StoredBooking, TravelerStore } from '../travelers/traveler-store.ts';
import type { CityNamesOf, TripStore } from '../trips/trip-store.ts';
import { bookingConflict } from './booking-conflicts.ts';
import { bookingDetailsOf, type BookedOffer } from './booking-details.ts';
import type { BookingLevers } from './booking-levers.ts';
import { cancelledNotice, changedNotice, confirmedNotice, formatMoney } from './booking-notices.ts';
import { bookingPlan, type PlannedSegment } from './booking-plans.ts';
import type { QuoteStore, StoredQuote } from './quote-store.ts';

/** A create-booking request as validated: the body with its defaults and the traveler's idempotency key. */
export interface CreateBooking {
  travelerId: string;
  idempotencyKey: string;
  offerId: string;
  price: Money;
  paymentMethodId: string;
  traveler: BookingTraveler;
  bookingProfile?: boolean | undefined;
  tripId?: string | undefined;
  replacesBookingId?: string | undefined;
}

/** What a create (or its replay) answers: a status and a body, stored under the idempotency key. */
export interface BookingOutcome {
  status: number;
  body: BookingDetails | ErrorEnvelope;
  replayed: boolean;
}

export interface BookingServiceOptions {
  db: DatabaseSync;
  quotes: QuoteStore;
  trips: TripStore;
  travelers: TravelerStore;
  levers: BookingLevers;
  faults: FaultRegistry;
  notifications: NotificationCenter;
  paymentMethods: (travelerId: string) => PaymentMethod[];
  /** A city's names by language, for the notifications' facts (clients name the cities in their language). */
  cityNamesOf?: CityNamesOf;
}

/** Outcomes of a create that are kept under the key: the same request gets the same answer again. */
const KEPT_FAILURES = new Set(['OFFER_EXPIRED', 'PRICE_CHANGED', 'BOOKING_CONFLICT', 'PAYMENT_DECLINED']);
const PRICE_CHANGE_FACTOR = 1.08;
const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Gives each stay booked before its trip segment kept the hotel's address (core-008) the address it was
 * booked at, from the booking's record; the trip store creates the column before this service starts.
 */
export const STAY_SEGMENT_ADDRESSES: Migration = {
  name: 'bookings-005-stay-segment-addresses',
  sql: `UPDATE segments SET address = (
      SELECT json_extract(r.record, '$.quote.property.address') FROM booking_records r
      WHERE r.traveler_id = segments.traveler_id
        AND json_extract(r.record, '$.quote.kind') = 'stay'
        AND EXISTS (SELECT 1 FROM json_each(r.record, '$.segmentIds') AS booked
          WHERE booked.value = segments.segment_id))
    WHERE kind = 'stay' AND address IS NULL`,
};

/**
 * Price checks, bookings and cancellations. Every step of a create runs synchronously in one sqlite
 * transaction, so two requests with the same idempotency key can never both book.
 */
export class BookingService {
  readonly #options: BookingServiceOptions;
  readonly #db: DatabaseSync;

  constructor(options: BookingServiceOptions) {
    this.#options = options;
    this.#db = options.db;
    applyMigrations(this.#db, [
      {
        name: 'bookings-002-records',
        sql: `CREATE TABLE booking_records (
          booking_id TEXT PRIMARY KEY,
          traveler_id TEXT NOT NULL,
          record TEXT NOT NULL
        ) STRICT;
        CREATE TABLE booking_requests (
          traveler_id TEXT NOT NULL,
          idempotency_key TEXT NOT NULL,
          request_hash TEXT NOT NULL,
          status INTEGER NOT NULL,
          response TEXT NOT NULL,
          created_at TEXT NOT NULL,
          PRIMARY KEY (traveler_id, idempotency_key)
        ) STRICT;`,
      },
      {
        name: 'bookings-004-cancellations-held-elsewhere',
        formerly: ['bookings-003-cancellations-held-elsewhere'],
        sql: `CREATE TABLE booking_cancellations (
          booking_id TEXT PRIMARY KEY,
          traveler_id TEXT NOT NULL,
          cancellation TEXT NOT NULL
        ) STRICT;`,
      },
      STAY_SEGMENT_ADDRESSES,
    ]);
  }

  /** Re-prices a quoted offer or rate: unchanged, changed (the new price is the one to book), or expired. */
  priceCheck(travelerId: string, offerId: string, now: Date): PriceCheck {
    const stored = this.#liveQuote(travelerId, offerId, now);
    const previousPrice = stored.price;
    let price = previousPrice;
    if (this.#options.levers.take(travelerId, 'price-change')) {
      price = {
        amount: roundToMinorUnit(previousPrice.amount * PRICE_CHANGE_FACTOR, previousPrice.currency),
        currency: previousPrice.currency,
      };
      this.#options.quotes.reprice(travelerId, offerId, price, now);
    }
    return {
      offerId,
      kind: stored.quote.kind,
      status: price.amount === previousPrice.amount ? 'unchanged' : 'changed',
      previousPrice,
      price,
      expiresAt: stored.expiresAt.toISOString(),
    };
  }

  /** The answer already given to this key, or undefined; a different body under a used key is refused. */
  replay(travelerId: string, idempotencyKey: string, requestHash?: string): BookingOutcome | undefined {
    const row = this.#db
      .prepare(
        'SELECT request_hash, status, response FROM booking_requests WHERE traveler_id = ? AND idempotency_key = ?',
      )
      .get(travelerId, idempotencyKey) as
      { request_hash: string; status: number; response: string } | undefined;
    if (!row) return undefined;
    if (requestHash !== undefined && row.request_hash !== requestHash) {
      throw new ServiceError('IDEMPOTENCY_KEY_REUSED', {
        status: 422,
        recoveryAction: 'FIX_INPUT',
        message: 'This Idempotency-Key was used for a different booking request; send a new key',
        details: [{ field: 'idempotency-key', code: 'idempotency_key_reused', message: 'Key already used' }],
      });
    }
    const body = JSON.parse(row.response) as BookingDetails | ErrorEnvelope;
    if (row.status === 201)
      return {
        status: 201,
        body: this.details(travelerId, (body as BookingDetails).bookingId) ?? body,
        replayed: true,
      };
    return { status: row.status, body, replayed: true };
  }

  /** Books a quoted offer or rate once per (traveler, idempotency key). */
  create(request: CreateBooking, now: Date): BookingOutcome {
    const requestHash = hashRequest(request);
    const outcome = transaction(this.#db, (): BookingOutcome => {
      const earlier = this.replay(request.travelerId, request.idempotencyKey, requestHash);
      if (earlier) return earlier;
      let result: BookingOutcome;
      try {
        const details = this.#book(request, now);
        result = { status: 201, body: details, replayed: false };
      } catch (error) {
        if (!(error instanceof ServiceError) || !KEPT_FAILURES.has(error.code)) throw error;
        result = { status: error.statusCode, body: error.envelope, replayed: false };
      }
      this.#db
        .prepare(
          `INSERT INTO booking_requests (traveler_id, idempotency_key, request_hash, status, response, created_at)
          VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(
          request.travelerId,
          request.idempotencyKey,
          requestHash,
          result.status,
          JSON.stringify(result.body),
          now.toISOString(),
        );
      return result;
    });
    if (outcome.status === 201 && !outcome.replayed)
      this.#confirm(request.travelerId, outcome.body as BookingDetails, now);
    return outcome;
  }

  /**
   * The confirmation notification, sent once the booking is stored; a booking made to replace another is
   * told of once, when the one it replaces is cancelled (changedNotice), so that every open trip reads both
   * changes at once.
   */
  #confirm(travelerId: string, booking: BookingDetails, now: Date): void {
    if (this.#record(travelerId, booking.bookingId)?.replaces !== undefined) return;
    this.#notify(confirmedNotice(travelerId, booking, this.#options.cityNamesOf), now);
  }

  /** The booking of the traveler made to replace this one, if any. */
  #replacement(travelerId: string, bookingId: string): BookingDetails | undefined {
    const row = this.#db
      .prepare(
        "SELECT booking_id FROM booking_records WHERE traveler_id = ? AND json_extract(record, '$.replaces') = ? LIMIT 1",
      )
      .get(travelerId, bookingId) as { booking_id: string } | undefined;
    return row ? this.details(travelerId, row.booking_id) : undefined;
  }

  #notify(notice: NotificationDraft | undefined, now: Date): void {
    if (notice) this.#options.notifications.dispatch(notice, now);
  }

  /** A booking of the traveler with what was booked; undefined when it does not exist or is not theirs. */
  details(travelerId: string, bookingId: string, now = new Date()): BookingDetails | undefined {
    const booking = this.#options.travelers.booking(travelerId, bookingId);
    if (!booking) return undefined;
    const record = this.#record(travelerId, bookingId);
    const details = bookingDetailsOf(booking, record, now);
    if (record) return details;
    return {
      ...details,
      cancellationTerms: this.#termsHeldElsewhere(travelerId, booking, now),
      cancellation: this.#cancellationHeldElsewhere(travelerId, bookingId),
    };
  }

  /**
   * A flight or train booked outside these operations (a generated traveler's own booking) is a flexible
   * fare: refunded in full until its departure. Stays and cars booked so stay with the provider.
   */
  #termsHeldElsewhere(travelerId: string, booking: Booking, now: Date): CancellationTerms | null {
    if (booking.vertical !== 'flight' && booking.vertical !== 'rail') return null;
    if (booking.status !== 'confirmed' && booking.status !== 'pending') return null;
    if (!booking.tripId || !booking.segmentId) return null;
    const segment = this.#options.trips.getSegment(travelerId, booking.tripId, booking.segmentId);
    if (!segment) return null;
    const departure = Date.parse(segment.scheduledDeparture);
    if (now.getTime() >= departure) return null;
    const { currency } = booking.totalPrice;
    return {
      refund: booking.totalPrice,
      fee: { amount: roundToMinorUnit(0, currency), currency },
      freeUntil: new Date(departure).toISOString(),
    };
  }

  #cancellationHeldElsewhere(travelerId: string, bookingId: string): BookingDetails['cancellation'] {
    const row = this.#db
      .prepare('SELECT cancellation FROM booking_cancellations WHERE booking_id = ? AND traveler_id = ?')
      .get(bookingId, travelerId) as { cancellation: string } | undefined;
    return row ? (JSON.parse(row.cancellation) as BookingDetails['cancellation']) : null;
  }

  /** Cancels by the rules the rate showed; cancelling a cancelled booking answers it as it is. */
  cancel(travelerId: string, bookingId: string, now: Date): BookingDetails {
    const { details, changed } = transaction(this.#db, () => {
      const current = this.details(travelerId, bookingId, now);
      if (!current) throw notFound();
      if (current.status === 'cancelled') return { details: current, changed: false };
      const record = this.#record(travelerId, bookingId);
      const terms = current.cancellationTerms;
      if (!terms) {
        throw new ServiceError('BOOKING_CONFLICT', {
          message:
            current.status === 'completed' || !record
              ? 'This booking cannot be cancelled online; contact support'
              : 'This booking has started and can no longer be cancelled',
          recoveryAction: 'CONTACT_SUPPORT',
          reason: { code: 'not_cancellable' },
        });
      }
      if (this.#options.levers.take(travelerId, 'cancel-failure')) {
        throw new ServiceError('SERVICE_UNAVAILABLE', {
          status: 503,
          message: 'The provider did not confirm the cancellation; try again shortly',
          recoveryAction: 'RETRY_LATER',
          retryAfterSeconds: 1,
        });
      }
      const cancellation = { cancelledAt: now.toISOString(), refund: terms.refund, fee: terms.fee };
      if (record) {
        record.cancellation = cancellation;
        this.#db
          .prepare('UPDATE booking_records SET record = ? WHERE booking_id = ?')
          .run(JSON.stringify(record), bookingId);
      } else {
        this.#db
          .prepare(
            'INSERT INTO booking_cancellations (booking_id, traveler_id, cancellation) VALUES (?, ?, ?)',
          )
          .run(bookingId, travelerId, JSON.stringify(cancellation));
      }
      this.#options.travelers.setBookingStatus(travelerId, bookingId, 'cancelled');
      const segmentIds = record?.segmentIds ?? (current.segmentId ? [current.segmentId] : []);
      for (const segmentId of segmentIds) {
        this.#options.trips.updateSegmentStatus(
          travelerId,
          current.tripId ?? '',
          segmentId,
          { status: 'CANCELLED' },
          now,
        );
      }
      return { details: this.details(travelerId, bookingId, now)!, changed: true };
    });
    if (changed) {
      const replacement = this.#replacement(travelerId, bookingId);
      this.#notify(
        replacement
          ? changedNotice(travelerId, replacement, details, this.#options.cityNamesOf)
          : cancelledNotice(travelerId, details, this.#options.cityNamesOf),
        now,
      );
    }
    return details;
  }

  #liveQuote(travelerId: string, offerId: string, now: Date): StoredQuote {
    const stored = this.#options.quotes.get(travelerId, offerId, now);
    const expired =
      this.#options.levers.take(travelerId, 'offer-expired') ||
      this.#options.faults.for(travelerId).offersExpired;
    if (!stored || expired) {
      throw new ServiceError('OFFER_EXPIRED', {
        message: 'This offer has expired or is no longer available; choose another',
        recoveryAction: 'CHANGE_SELECTION',
      });
    }
    return stored;
  }

  #record(travelerId: string, bookingId: string): BookedOffer | undefined {
    const row = this.#db
      .prepare('SELECT record FROM booking_records WHERE booking_id = ? AND traveler_id = ?')
      .get(bookingId, travelerId) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as BookedOffer) : undefined;
  }

  #book(request: CreateBooking, now: Date): BookingDetails {
    const { travelerId } = request;
    const stored = this.#liveQuote(travelerId, request.offerId, now);
    const { quote, price } = stored;
    if (price.amount !== request.price.amount || price.currency !== request.price.currency) {
      throw new ServiceError('PRICE_CHANGED', {
        status: 409,
        recoveryAction: 'FIX_INPUT',
        message: `The price is now ${formatMoney(price)}; check the price and confirm it`,
        details: [{ field: 'price', code: 'price_changed', message: `Now ${formatMoney(price)}` }],
      });
    }
    const profile = this.#options.travelers.profile(travelerId);
    const bookingProfile =
      quote.kind === 'stay'
        ? quote.bookingProfile
        : (request.bookingProfile ?? profile?.bookingProfile ?? false);
    const method = this.#options
      .paymentMethods(travelerId)
      .find((candidate) => candidate.paymentMethodId === request.paymentMethodId);
    if (!method || method.bookingProfile !== bookingProfile) {
      throw new ServiceError('VALIDATION_ERROR', {
        message: 'The request failed validation',
        details: [
          method
            ? {
                field: 'paymentMethodId',
                code: 'payment_method_profile',
                message: bookingProfile
                  ? 'Personal travel is paid with a personal card'
                  : 'Business travel is paid with a company card',
              }
            : {
                field: 'paymentMethodId',
                code: 'unknown_payment_method',
                message: 'No such payment method on file',
              },
        ],
      });
    }

    if (
      request.replacesBookingId !== undefined &&
      !this.#options.travelers.booking(travelerId, request.replacesBookingId)
    ) {
      throw new ServiceError('VALIDATION_ERROR', {
        message: 'The request failed validation',
        details: [
          { field: 'replacesBookingId', code: 'unknown_booking', message: 'No such booking of the traveler' },
        ],
      });
    }
    if (request.tripId !== undefined && !this.#options.trips.getTrip(travelerId, request.tripId, now)) {
      throw new ServiceError('VALIDATION_ERROR', {
        message: 'The request failed validation',
        details: [{ field: 'tripId', code: 'unknown_trip', message: 'No such trip of the traveler' }],
      });
    }
    const reference = newReference();
    const plan = bookingPlan(quote, reference);
    this.#checkConflicts(travelerId, plan.segments, reference);
    if (this.#options.levers.take(travelerId, 'payment-decline')) {
      throw new ServiceError('PAYMENT_DECLINED', {
        status: 402,
        recoveryAction: 'CHANGE_PAYMENT',
        message: `The card issuer declined ${method.label} ending ${method.last4}; choose another payment method`,
        reason: {
          code: 'card_declined',
          paymentMethodId: method.paymentMethodId,
        } satisfies PaymentDeclinedReason,
      });
    }

    const bookingId = randomUUID();
    const { tripId } = this.#options.trips.addBookedSegments(
      travelerId,
      { title: plan.tripTitle, startDate: plan.startDate, endDate: plan.endDate, tripId: request.tripId },
      plan.segments,
      now,
    );
    const booking: StoredBooking = {
      bookingId,
      reference,
      vertical: quote.kind,
      status: 'confirmed',
      title: plan.title,
      startDate: plan.startDate,
      endDate: plan.endDate,
      tripId,
      segmentId: plan.segments[0]!.segmentId,
      location: plan.location,
      route: plan.route,
      totalPrice: price,
      bookingProfile,
      bookedAt: now.toISOString(),
    };
    this.#options.travelers.insertBooking(travelerId, booking);
    const record: BookedOffer = {
      offerId: request.offerId,
      traveler: request.traveler,
      paymentMethod: {
        paymentMethodId: method.paymentMethodId,
        brand: method.brand,
        last4: method.last4,
        label: method.label,
      },
      quote,
      segmentIds: plan.segments.map((segment) => segment.segmentId),
      replaces: request.replacesBookingId,
      cancellation: null,
    };
    this.#db
      .prepare('INSERT INTO booking_records (booking_id, traveler_id, record) VALUES (?, ?, ?)')
      .run(bookingId, travelerId, JSON.stringify(record));
    return this.details(travelerId, bookingId, now)!;
  }

  /** The same flight twice, a stay overlapping another, or a clash the provider reports (lever). */
  #checkConflicts(travelerId: string, planned: readonly PlannedSegment[], reference: string): void {
    const conflict = bookingConflict(this.#options.trips.listSegments(travelerId), planned, reference);
    if (conflict) throw conflict;
    if (this.#options.levers.take(travelerId, 'booking-conflict')) {
      throw new ServiceError('BOOKING_CONFLICT', {
        message: 'The provider already holds a reservation for this traveler that clashes with this one',
        reason: { code: 'provider_conflict' } satisfies BookingConflictReason,
      });
    }
  }
}

function hashRequest(request: CreateBooking): string {
  const { travelerId: _traveler, idempotencyKey: _key, ...body } = request;
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

function newReference(): string {
  let reference = '';
  for (let i = 0; i < 6; i++) reference += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return reference;
}

function notFound(): ServiceError {
  return new ServiceError('RESOURCE_NOT_FOUND', { message: 'Booking not found' });
}
