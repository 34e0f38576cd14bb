import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BookingDetailsSchema,
  CreateBookingRequestSchema,
  IdempotencyKeySchema,
  type BookingDetails,
  type CreateBookingRequest,
} from '#shared/upstream/booking-operations.ts';
import { AppError } from '../../errors.ts';
import { signedInTraveler } from '../../sessions/session-plugin.ts';
import type { UpstreamAuth } from '../../travel-api/travel-api.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { routeSchema } from './error-responses.ts';

/** Waits between lookups of a booking whose create timed out; their sum stays inside the retry budget. */
const LOOKUP_DELAYS_MS = [0, 250, 500, 1000, 2000];

/**
 * POST /api/bookings: a booking, made exactly once per Idempotency-Key. A create that times out is answered
 * by looking the booking up by its key, never by booking again; concurrent creates with one key and body
 * share one upstream call. (The price check, payment methods, reading and cancelling pass through:
 * pass-through-routes.ts.)
 */
export default async function createBookingRoute(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const inFlight = new Map<string, Promise<BookingDetails>>();

  routes.post(
    '/api/bookings',
    {
      schema: routeSchema(
        'bookings',
        'Book a checked offer or rate; the Idempotency-Key header makes a repeated submit book once',
        { body: CreateBookingRequestSchema },
        { 201: BookingDetailsSchema },
      ),
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request);
      const flight = `${signedInTraveler(request).travelerId}\n${key}\n${hashOf(request.body)}`;
      let pending = inFlight.get(flight);
      if (!pending) {
        pending = createOnce(request, key, request.body).finally(() => inFlight.delete(flight));
        inFlight.set(flight, pending);
      }
      return reply.code(201).send(await pending);
    },
  );

  /**
   * One create upstream, under the browser's key. It is not tied to the browser's connection: a browser
   * that drops mid-submit comes back with the same key, and the booking it started must be there to find.
   */
  async function createOnce(
    request: FastifyRequest,
    key: string,
    body: CreateBookingRequest,
  ): Promise<BookingDetails> {
    const auth = await travelerAuth(app, request);
    return createBookingUpstream(app, { key, body, auth, requestId: request.id, log: request.log });
  }
}

/**
 * POST /v1/bookings under an Idempotency-Key, exactly once: a transport failure is retried with the same
 * key, and a timeout is answered by looking the booking up by its key, never by booking again.
 */
export async function createBookingUpstream(
  app: FastifyInstance,
  call: {
    key: string;
    body: CreateBookingRequest;
    auth: UpstreamAuth;
    requestId: string;
    log: FastifyBaseLogger;
  },
): Promise<BookingDetails> {
  const { key, body, auth, requestId, log } = call;
  try {
    return await app.travelApi.request({
      method: 'POST',
      path: '/v1/bookings',
      headers: { 'idempotency-key': key },
      body,
      auth,
      // Safe to retry a transport failure: the key makes the upstream answer it once.
      retry: 'idempotent',
      requestId,
      log,
      schema: BookingDetailsSchema,
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'GATEWAY_TIMEOUT') throw error;
    log.warn({ booking: 'create timed out' }, 'booking create timed out; looking it up by its key');
    for (const delay of LOOKUP_DELAYS_MS) {
      if (delay > 0) await sleep(delay);
      const found = await bookingRequestOutcome(app, { key, auth, requestId, log }).catch(
        (lookupError: unknown) => {
          if (lookupError instanceof AppError && lookupError.code === 'GATEWAY_TIMEOUT') return undefined;
          throw lookupError;
        },
      );
      if (found) return found;
    }
    throw new AppError('GATEWAY_TIMEOUT', {
      message: 'The booking has not been confirmed yet. Submit again: the same booking is never made twice.',
      recoveryAction: 'RETRY_NOW',
      cause: error,
    });
  }
}

/**
 * What a create under this key answered: the booking, undefined when no create with it has completed, or
 * the refusal it got (thrown as that error).
 */
export async function bookingRequestOutcome(
  app: FastifyInstance,
  call: { key: string; auth: UpstreamAuth; requestId: string; log: FastifyBaseLogger },
): Promise<BookingDetails | undefined> {
  try {
    return await app.travelApi.request({
      method: 'GET',
      path: `/v1/booking-requests/${encodeURIComponent(call.key)}`,
      auth: call.auth,
      requestId: call.requestId,
      log: call.log,
      schema: BookingDetailsSchema,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'RESOURCE_NOT_FOUND') return undefined;
    throw error;
  }
}

export function idempotencyKeyOf(request: FastifyRequest): string {
  const parsed = IdempotencyKeySchema.safeParse(request.headers['idempotency-key']);
  if (parsed.success) return parsed.data;
  throw new AppError('VALIDATION_ERROR', {
    message: 'The request failed validation',
    details: [
      {
        field: 'idempotency-key',
        code: request.headers['idempotency-key'] === undefined ? 'missing' : 'string_pattern_mismatch',
        message: 'Send an Idempotency-Key header of 8 to 255 letters, digits or _ . : -',
      },
    ],
  });
}

function hashOf(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}
