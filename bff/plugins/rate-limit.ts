import rateLimitPlugin, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { bffMetrics } from '../observability/bff-metrics.ts';

export type ExpensiveRouteKind = 'search' | 'fares';

/**
 * Route config of an expensive route (flight search, stay search, stay fares): a quota per session
 * per minute, from RATE_LIMIT_SEARCH_PER_MINUTE / RATE_LIMIT_FARES_PER_MINUTE. Use it as
 * `config: { rateLimit: expensiveRouteRateLimit(app.config, 'search') }`.
 */
export function expensiveRouteRateLimit(config: Config, kind: ExpensiveRouteKind): RateLimitOptions {
  return {
    max: kind === 'search' ? config.RATE_LIMIT_SEARCH_PER_MINUTE : config.RATE_LIMIT_FARES_PER_MINUTE,
    timeWindow: 60_000,
  };
}

/** The session when there is one; the address otherwise (signed-out calls of a guest-less route). */
export function rateLimitKey(request: FastifyRequest): string {
  return request.session ? sessionRateKey(request, request.session.id) : clientAddressKey(request);
}

/** A session's counter, named in Redis by the session's keyed hash, never by its id (the browser's cookie). */
function sessionRateKey(request: FastifyRequest, sessionId: string): string {
  const { redis } = request.server;
  return `session:${redis ? redis.cipher.nameOf(sessionId) : sessionId}`;
}

/** The client's address (request.ip: the socket's, or the right-most hop in front of the trusted fronts). */
export function clientAddressKey(request: FastifyRequest): string {
  return `ip:${request.ip}`;
}

/**
 * Route config of a route that answers without a session: a quota per minute, from
 * RATE_LIMIT_ANONYMOUS_PER_MINUTE unless the route sets a smaller `max`, per client address, or per session
 * for a signed-in traveler (whose calls go upstream with their own bearer). A guest session does not count
 * as one: guest sessions are free to start, and a new one must not buy a client new quota. What such a
 * route asks the travel API without a traveler counts against one caller there, the BFF, for every
 * visitor at once: one client's burst is refused here before it spends that.
 */
export function anonymousRouteRateLimit(
  config: Config,
  max = config.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
): RateLimitOptions {
  return {
    max,
    timeWindow: 60_000,
    keyGenerator: (request) =>
      request.session?.kind === 'traveler'
        ? sessionRateKey(request, request.session.id)
        : clientAddressKey(request),
  };
}

async function rateLimitingPlugin(app: FastifyInstance): Promise<void> {
  // The fleet's shared connection (fails fast while Redis is away; the Redis plugin closes it).
  const redis = app.redis?.client;

  await app.register(rateLimitPlugin, {
    global: false,
    hook: 'preHandler',
    keyGenerator: rateLimitKey,
    ...(redis ? { redis, nameSpace: 'wayfare-bff-rate-limit:' } : {}),
    errorResponseBuilder: (request, context) => {
      bffMetrics().rateLimitRefusals.add(1, { 'http.route': request.routeOptions.url ?? 'unmatched' });
      return new AppError('RATE_LIMIT_EXCEEDED', {
        status: 429,
        message: 'Too many requests. Please wait a moment before trying again.',
        recoveryAction: 'RETRY_LATER',
        retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      });
    },
  });
}

/** Per-session quotas for the expensive routes, in memory or in Redis when REDIS_URL is set. */
export const rateLimiting = fp(rateLimitingPlugin, {
  name: 'rate-limit',
  fastify: '5.x',
  decorators: { fastify: ['config', 'redis'] },
});
export default rateLimiting;
