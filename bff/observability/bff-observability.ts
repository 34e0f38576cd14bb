import type { FastifyInstance } from 'fastify';
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
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'POST' || request.routeOptions.url !== BOOKING_ROUTE) return payload;
    const code = reply.statusCode < 300 ? 'BOOKED' : answeredCode(reply.statusCode, payload);
    bffMetrics().bookingOutcomes.add(1, { code });
    return payload;
  });
}

export const bffObservabilityPlugin = fp(bffObservability, {
  name: 'bff-observability',
  fastify: '5.x',
  dependencies: ['observability'],
});
