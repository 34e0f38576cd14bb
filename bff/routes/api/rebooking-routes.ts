import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  RebookingRequestSchema,
  RebookingSchema,
  type Rebooking,
  type RebookingRequest,
  type RebookingState,
} from '#shared/api/rebooking.ts';
import {
  BookingDetailsSchema,
  PaymentMethodListSchema,
  PriceCheckSchema,
  type BookingDetails,
} from '#shared/upstream/booking-operations.ts';
import { ProfileSchema } from '#shared/upstream/profile.ts';
import { AppError } from '../../errors.ts';
import { signedInTraveler } from '../../sessions/session-plugin.ts';
import type { UpstreamAuth } from '../../travel-api/travel-api.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { bookingRequestOutcome, createBookingUpstream, idempotencyKeyOf } from './create-booking-routes.ts';
import { routeSchema } from './error-responses.ts';

/** The longest wait between two retries of a cancel that failed. */
const CANCEL_RETRY_CAP_MS = 60_000;
/** Idempotency keys remembered with the request they came with, to refuse one reused for another. */
const REMEMBERED_KEYS = 10_000;

interface Context {
  auth: UpstreamAuth;
  requestId: string;
  log: FastifyBaseLogger;
}

/** A booking replaced by a new one whose cancel has not completed yet (kept per traveler and old booking). */
interface Replacement {
  createKey: string;
  sessionId: string;
  newBooking: BookingDetails;
  oldBooking: BookingDetails;
  state: RebookingState;
  attempts: number;
  running?: Promise<void> | undefined;
  timer?: NodeJS.Timeout | undefined;
}

/**
 * POST /api/rebookings: replace a booking with another flight in one step, exactly once. The new booking is
 * made under an upstream Idempotency-Key derived from what is replaced and what replaces it (the booking,
 * the offer, the card, the price), so a double click, a retry after a timeout and two tabs confirming the
 * same flight make one booking, on any instance; rebookings of one booking are taken one at a time, and
 * a second, different choice for a booking already being replaced is refused. Only after the new booking
 * is confirmed is the old one cancelled; a cancel that fails leaves the traveler holding both, and is
 * retried here (and by the browser submitting again) until it succeeds or needs support.
 */
export default async function rebookingRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { REBOOKING_CANCEL_RETRY_MS: retryMs, REBOOKING_CANCEL_ATTEMPTS: maxAttempts } = app.config;
  const inFlight = new Map<string, Promise<Rebooking>>();
  const keys = new Map<string, string>();
  const turns = new Map<string, Promise<unknown>>();
  const replacements = new Map<string, Replacement>();

  app.addHook('onClose', async () => {
    for (const replacement of replacements.values()) clearTimeout(replacement.timer);
  });

  routes.post(
    '/api/rebookings',
    {
      schema: routeSchema(
        'bookings',
        'Replace a booking with another flight: price check, book with the card on file, cancel the old one; the Idempotency-Key header makes a repeated submit rebook once',
        { body: RebookingRequestSchema },
        { 201: RebookingSchema },
      ),
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request);
      const { travelerId, sessionId } = signedInTraveler(request);
      const bodyHash = hashOf([request.body]);
      rememberKey(`${travelerId}\n${key}`, bodyHash);
      const id = `${travelerId}\n${key}\n${bodyHash}`;
      let pending = inFlight.get(id);
      if (!pending) {
        const context: Context = {
          auth: await travelerAuth(app, request),
          requestId: request.id,
          log: request.log,
        };
        const slot = `${travelerId}\n${request.body.bookingId}`;
        pending = inTurn(slot, () => rebook(slot, sessionId, travelerId, request.body, context)).finally(() =>
          inFlight.delete(id),
        );
        inFlight.set(id, pending);
      }
      return reply.code(201).send(await pending);
    },
  );

  /** Refuses a key sent before with another request (within what this instance remembers). */
  function rememberKey(slot: string, bodyHash: string): void {
    const earlier = keys.get(slot);
    if (earlier !== undefined && earlier !== bodyHash) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', {
        status: 422,
        recoveryAction: 'FIX_INPUT',
        message: 'This Idempotency-Key was used for a different rebooking; send a new key',
        details: [{ field: 'idempotency-key', code: 'idempotency_key_reused', message: 'Key already used' }],
      });
    }
    keys.delete(slot);
    keys.set(slot, bodyHash);
    if (keys.size > REMEMBERED_KEYS) keys.delete(keys.keys().next().value!);
  }

  /** Runs the work for one booking after every earlier one for it has finished. */
  async function inTurn<T>(slot: string, work: () => Promise<T>): Promise<T> {
    const before = turns.get(slot) ?? Promise.resolve();
    const run = before.then(work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    turns.set(slot, settled);
    try {
      return await run;
    } finally {
      if (turns.get(slot) === settled) turns.delete(slot);
    }
  }

  async function rebook(
    slot: string,
    sessionId: string,
    travelerId: string,
    body: RebookingRequest,
    context: Context,
  ): Promise<Rebooking> {
    const old = await readBooking(body.bookingId, context);
    if (old.vertical !== 'flight') {
      throw new AppError('VALIDATION_ERROR', {
        message: 'The request failed validation',
        details: [
          { field: 'bookingId', code: 'not_a_flight', message: 'Only a flight can be replaced here' },
        ],
      });
    }
    const paymentMethodId =
      body.paymentMethodId ??
      old.paymentMethod?.paymentMethodId ??
      (await firstCard(old.bookingProfile, context));
    const createKey = `rebook.${hashOf([travelerId, old.bookingId, body.offerId, paymentMethodId, body.price])}`;
    const earlier = replacements.get(slot);
    if (earlier && earlier.createKey !== createKey) throw alreadyReplaced(earlier.newBooking);

    let created = await bookingRequestOutcome(app, { key: createKey, ...context });
    if (!created) {
      refuseUnreplaceable(old);
      await checkPrice(body, context);
      const traveler = old.traveler ?? (await profileTraveler(context));
      created = await createBookingUpstream(app, {
        key: createKey,
        body: {
          offerId: body.offerId,
          price: body.price,
          paymentMethodId,
          traveler: { name: traveler.name, email: traveler.email, phone: traveler.phone },
          bookingProfile: old.bookingProfile,
          ...(old.tripId ? { tripId: old.tripId } : {}),
          replacesBookingId: old.bookingId,
        },
        ...context,
      });
      context.log.info(
        { rebooking: 'booked', newBookingId: created.bookingId, oldBookingId: old.bookingId },
        'rebooking: the new flight is booked; cancelling the old booking',
      );
    }
    const replacement: Replacement = earlier ?? {
      createKey,
      sessionId,
      newBooking: created,
      oldBooking: old,
      state: 'cancel-pending',
      attempts: 0,
    };
    replacement.newBooking = created;
    if (replacement.state !== 'needs-support') {
      replacements.set(slot, replacement);
      await attemptCancel(slot, replacement, context);
    }
    return {
      state: replacement.state,
      newBooking: replacement.newBooking,
      oldBooking: replacement.oldBooking,
      cancelAttempts: replacement.attempts,
    };
  }

  /** One cancel of the replaced booking (joining one already running); schedules the next when it failed. */
  async function attemptCancel(slot: string, replacement: Replacement, context: Context): Promise<void> {
    replacement.running ??= (async () => {
      clearTimeout(replacement.timer);
      replacement.timer = undefined;
      replacement.attempts += 1;
      try {
        replacement.oldBooking = await app.travelApi.request({
          method: 'POST',
          path: `/v1/bookings/${encodeURIComponent(replacement.oldBooking.bookingId)}/cancel`,
          // Each attempt is seen by the traveler as one; the retries are this operation's own.
          retry: 'none',
          ...context,
          schema: BookingDetailsSchema,
        });
        replacement.state = 'completed';
        replacements.delete(slot);
      } catch (error) {
        const again = retryable(error) && replacement.attempts < maxAttempts;
        replacement.state = again ? 'cancel-pending' : 'needs-support';
        context.log.warn(
          {
            rebooking: replacement.state,
            oldBookingId: replacement.oldBooking.bookingId,
            attempts: replacement.attempts,
            code: error instanceof AppError ? error.code : undefined,
          },
          'rebooking: the old booking was not cancelled',
        );
        if (again) scheduleRetry(slot, replacement, context.log);
      }
    })().finally(() => (replacement.running = undefined));
    await replacement.running;
  }

  function scheduleRetry(slot: string, replacement: Replacement, log: FastifyBaseLogger): void {
    const wait = Math.min(CANCEL_RETRY_CAP_MS, retryMs * 2 ** (replacement.attempts - 1));
    replacement.timer = setTimeout(() => {
      replacement.timer = undefined;
      void (async () => {
        try {
          const token = await app.auth.accessTokenForSession(replacement.sessionId);
          await attemptCancel(slot, replacement, {
            auth: { kind: 'bearer', token },
            requestId: `rebooking-retry-${replacement.attempts}`,
            log,
          });
        } catch (error) {
          // The session has ended: the browser's next submit (signed in again) retries the cancel.
          log.warn({ rebooking: 'retry without session', err: error }, 'rebooking: cancel retry waits');
        }
      })();
    }, wait);
    replacement.timer.unref();
  }

  async function readBooking(bookingId: string, context: Context): Promise<BookingDetails> {
    return app.travelApi.request({
      method: 'GET',
      path: `/v1/bookings/${encodeURIComponent(bookingId)}`,
      ...context,
      schema: BookingDetailsSchema,
    });
  }

  async function firstCard(bookingProfile: boolean, context: Context): Promise<string> {
    const { items } = await app.travelApi.request({
      method: 'GET',
      path: '/v1/me/payment-methods',
      query: { bookingProfile: String(bookingProfile) },
      ...context,
      schema: PaymentMethodListSchema,
    });
    const [card] = items;
    if (!card) {
      throw new AppError('VALIDATION_ERROR', {
        message: 'The request failed validation',
        details: [
          { field: 'paymentMethodId', code: 'no_payment_method', message: 'No card on file for this travel' },
        ],
      });
    }
    return card.paymentMethodId;
  }

  /** The price the traveler agreed to must still be the offer's: else 409 PRICE_CHANGED and nothing booked. */
  async function checkPrice(body: RebookingRequest, context: Context): Promise<void> {
    const check = await app.travelApi.request({
      method: 'POST',
      path: `/v1/offers/${encodeURIComponent(body.offerId)}/price-check`,
      retry: 'idempotent',
      ...context,
      schema: PriceCheckSchema,
    });
    if (check.price.amount === body.price.amount && check.price.currency === body.price.currency) return;
    const now = `${check.price.currency} ${check.price.amount}`;
    throw new AppError('PRICE_CHANGED', {
      status: 409,
      recoveryAction: 'FIX_INPUT',
      message: `The price is now ${now}; check the price and confirm it`,
      details: [{ field: 'price', code: 'price_changed', message: `Now ${now}` }],
    });
  }

  async function profileTraveler(context: Context) {
    const profile = await app.travelApi.request({
      method: 'GET',
      path: '/v1/profile',
      ...context,
      schema: ProfileSchema,
    });
    return { name: profile.name ?? 'Traveler', email: profile.email ?? '', phone: null };
  }
}

/** A booking that cannot be replaced here: refused before anything is booked. */
function refuseUnreplaceable(old: BookingDetails): void {
  if (old.status === 'cancelled') {
    throw new AppError('BOOKING_CONFLICT', {
      message: 'This booking is already cancelled; there is nothing to replace',
      recoveryAction: 'CHANGE_SELECTION',
      reason: { code: 'already_cancelled', reference: old.reference },
    });
  }
  if (!old.cancellationTerms) {
    throw new AppError('BOOKING_CONFLICT', {
      message: 'This booking cannot be cancelled online, so it cannot be replaced here; contact support',
      recoveryAction: 'CONTACT_SUPPORT',
      reason: { code: 'not_cancellable', reference: old.reference },
    });
  }
}

function alreadyReplaced(replacement: BookingDetails): AppError {
  return new AppError('BOOKING_CONFLICT', {
    message: `This booking is already being replaced by booking ${replacement.reference}`,
    recoveryAction: 'CHANGE_SELECTION',
    reason: { code: 'already_rebooked', reference: replacement.reference },
  });
}

/** A failure that may pass: the travel API asked for a retry, timed out or could not be reached. */
function retryable(error: unknown): boolean {
  if (!(error instanceof AppError)) return true;
  const action = error.envelope.error.recoveryAction;
  return action === 'RETRY_NOW' || action === 'RETRY_LATER' || error.status >= 500;
}

function hashOf(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
