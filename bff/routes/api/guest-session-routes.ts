import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GuestSessionStatusSchema } from '#shared/api/guest-session-status.ts';
import { GuestSessionSchema } from '#shared/upstream/guest-session.ts';
import { AppError } from '../../errors.ts';
import { anonymousRouteRateLimit } from '../../plugins/rate-limit.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { routeSchema } from './error-responses.ts';

/** Guest sessions a client address may start per minute (whatever session cookie it sends). */
export const GUEST_SESSIONS_PER_MINUTE = 10;

/**
 * POST /api/guest-session: a signed-out visitor of a shared stay link gets a guest session, backed by a
 * travel API guest token (POST /v1/guest-sessions) that only stay fares accept. The token stays here.
 */
export default async function guestSessionRoute(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/guest-session',
    {
      config: { rateLimit: anonymousRouteRateLimit(app.config, GUEST_SESSIONS_PER_MINUTE) },
      schema: routeSchema(
        'session',
        'Start a guest session for viewing a shared stay',
        {},
        { 201: GuestSessionStatusSchema },
      ),
    },
    async (request, reply) => {
      if (request.session?.kind === 'traveler') {
        throw new AppError('SESSION_CONFLICT', {
          status: 409,
          message: 'You are signed in already; a guest session would sign you out.',
          recoveryAction: 'BLOCKED',
        });
      }
      const guest = await app.travelApi.request({
        method: 'POST',
        path: '/v1/guest-sessions',
        auth: { kind: 'none' },
        ...upstreamContext(request, reply),
        schema: GuestSessionSchema,
      });
      const session = await app.sessions.createGuest(reply, guest);
      return reply
        .code(201)
        .send({ authenticated: true as const, kind: 'guest' as const, expiresAt: session.expiresAt });
    },
  );
}
