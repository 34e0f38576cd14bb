import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UpstreamAuth } from './travel-api-client.ts';

/** What every upstream call made for a browser request carries: its request id and its logger. */
export function upstreamContext(request: FastifyRequest): { requestId: string; log: FastifyRequest['log'] } {
  return { requestId: request.id, log: request.log };
}

/**
 * The signed-in traveler's bearer token for an upstream call, with the refresh the client runs once
 * after an upstream 401 UNAUTHORIZED before it retries.
 */
export async function travelerAuth(app: FastifyInstance, request: FastifyRequest): Promise<UpstreamAuth> {
  return {
    kind: 'bearer',
    token: await app.auth.accessTokenFor(request),
    refresh: () => app.auth.forceRefresh(request),
  };
}
