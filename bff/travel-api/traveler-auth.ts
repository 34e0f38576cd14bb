import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UpstreamAuth } from './travel-api.ts';

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
