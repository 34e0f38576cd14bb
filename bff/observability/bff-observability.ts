import type { FastifyInstance, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { bffMetrics } from './bff-metrics.ts';

const BOOKING_ROUTE = '/api/bookings';

/** The error code of an envelope answer, or the status when the body is not one. */
function answeredCode(status: number, payload: unknown): string {
  if (typeof payload === 'string') {
    try {
      const code = (JSON.parse(payload) as { error?: { code?: unknown } }).error?.code;
      if (typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code)) return code;
    } catch {
      // not JSON: the status says it
    }
  }
  return `HTTP_${status}`;
}

/**
 * What the BFF counts of its requests beyond their duration: booking attempts by outcome (BOOKED, or the
 * envelope's error code), read from the answer so that every way a booking ends is counted alike.
 */
async function bffObservability(app: FastifyInstance): Promise<void> {
  const countBookingOutcome: onSendHookHandler = (_request, reply, payload, done) => {
    const code = reply.statusCode < 300 ? 'BOOKED' : answeredCode(reply.statusCode, payload);
    bffMetrics().bookingOutcomes.add(1, { code });
    done(null, payload);
  };
  // On the booking route only, so that no other request runs a hook for it.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url !== BOOKING_ROUTE || !methods.includes('POST')) return;
    const onSend =
      route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...onSend, countBookingOutcome];
  });
}

export const bffObservabilityPlugin = fp(bffObservability, {
  name: 'bff-observability',
  fastify: '5.x',
  dependencies: ['observability'],
});
