import rateLimitPlugin, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';

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
  return request.session ? `session:${request.session.id}` : `ip:${request.ip}`;
}

async function rateLimitingPlugin(app: FastifyInstance): Promise<void> {
  // The fleet's shared connection (fails fast while Redis is away; the Redis plugin closes it).
  const redis = app.redis?.client;

  await app.register(rateLimitPlugin, {
    global: false,
    hook: 'preHandler',
    keyGenerator: rateLimitKey,
    ...(redis ? { redis, nameSpace: 'wayfare-bff-rate-limit:' } : {}),
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMIT_EXCEEDED', {
        status: 429,
        message: 'Too many requests. Please wait a moment before trying again.',
        recoveryAction: 'RETRY_LATER',
        retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });
}

/** Per-session quotas for the expensive routes, in memory or in Redis when REDIS_URL is set. */
export const rateLimiting = fp(rateLimitingPlugin, { name: 'rate-limit', fastify: '5.x' });
export default rateLimiting;
