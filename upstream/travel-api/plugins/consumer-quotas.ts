import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ServiceError } from '../service-error.ts';
import { isV1Request } from './consumer-signature.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `search` routes count against the smaller search quota. */
    quota?: 'search';
  }
}

/**
 * Quotas per consumer and caller (traveler, guest session or, before either is known, address), applied
 * after authentication. 429 RATE_LIMIT_EXCEEDED with retryAfterSeconds and Retry-After when exceeded.
 */
async function consumerQuotas(app: FastifyInstance): Promise<void> {
  const config = app.travelConfig;
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    allowList: (request) => !isV1Request(request),
    // The rate-limit levers' epoch is part of the key: setting or clearing a lever starts fresh windows,
    // instead of judging a new quota by a count and a window end left from the quota before. A traveler's
    // own lever (the demo's) concerns that traveler's requests only.
    keyGenerator: (request) =>
      [
        request.consumer ?? '-',
        request.traveler?.id ?? request.guest?.id ?? request.ip,
        request.routeOptions.config.quota ?? 'all',
        app.faults.rateLimitEpoch(request.traveler?.id),
      ].join(':'),
    max: (request: FastifyRequest) =>
      app.faults.for(request.traveler?.id).rateLimitMax ??
      (request.routeOptions.config.quota === 'search'
        ? config.TRAVEL_API_RATE_LIMIT_SEARCH_MAX
        : config.TRAVEL_API_RATE_LIMIT_MAX),
    timeWindow: (request: FastifyRequest) =>
      (app.faults.for(request.traveler?.id).rateLimitWindowSeconds ??
        config.TRAVEL_API_RATE_LIMIT_WINDOW_SECONDS) * 1000,
    errorResponseBuilder: (_request, context) =>
      new ServiceError('RATE_LIMIT_EXCEEDED', {
        message: 'Too many requests; slow down',
        retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });
}

export default fp(consumerQuotas, {
  name: 'consumer-quotas',
  dependencies: ['faults', 'consumer-signature'],
});
