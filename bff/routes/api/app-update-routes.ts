import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UpdateCheckQuerySchema, UpdateCheckSchema, type UpdateCheck } from '#shared/upstream/app-update.ts';
import { anonymousRouteRateLimit } from '../../plugins/rate-limit.ts';
import { SharedAnswers } from '../../travel-api/shared-answers.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { routeSchema } from './error-responses.ts';

/** Versions asked about whose answers are kept at once (the SPA asks about its own version only). */
const KEPT_VERSIONS = 32;

/**
 * GET /api/app/update-check: works signed out (the one /v1 operation without a bearer token). A signed-in
 * traveler's check goes with their bearer, so that a version announced to that traveler first (a staged
 * release, or the demo's app-update lever) is what they are told about.
 * Everyone else's is the same answer for all: it is asked once at a time and kept UPDATE_CHECK_CACHE_SECONDS,
 * so a crowd (or one client's burst) of signed-out checks costs the travel API's quota one call.
 */
export default async function appUpdateRoute(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const everyones = new SharedAnswers<UpdateCheck>({
    ttlMs: app.config.UPDATE_CHECK_CACHE_SECONDS * 1000,
    maxEntries: KEPT_VERSIONS,
  });

  routes.get(
    '/api/app/update-check',
    {
      config: { rateLimit: anonymousRouteRateLimit(app.config) },
      schema: routeSchema(
        'app',
        'Whether a newer version of the app is available or required',
        { querystring: UpdateCheckQuerySchema },
        { 200: UpdateCheckSchema },
      ),
    },
    async (request, reply) => {
      const query = request.query;
      const check =
        request.session?.kind === 'traveler'
          ? await app.travelApi.request({
              method: 'GET',
              path: '/v1/app/update-check',
              query,
              auth: await travelerAuth(app, request),
              ...upstreamContext(request, reply),
              schema: UpdateCheckSchema,
            })
          : // One call serves every caller waiting for it, so it is not tied to this browser's lifetime.
            await everyones.get(query.currentVersion ?? '', () =>
              app.travelApi.request({
                method: 'GET',
                path: '/v1/app/update-check',
                query,
                auth: { kind: 'none' },
                requestId: request.id,
                log: request.log,
                schema: UpdateCheckSchema,
              }),
            );
      return reply.header('cache-control', 'no-store').send(check);
    },
  );
}
