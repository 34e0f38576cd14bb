import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UpdateCheckQuerySchema, UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { travelerAuth } from '../../upstream/traveler-auth.ts';
import { upstreamContext } from '../../upstream/upstream-context.ts';
import { withErrorResponses } from './error-responses.ts';

/**
 * GET /api/app/update-check: works signed out (the one /v1 operation without a bearer token). For a
 * signed-in traveler it is sent with the traveler's bearer, so that a version announced to that traveler
 * first (a staged release, or the demo's app-update lever) is what they are told about.
 */
export default function appUpdateRoute(app: FastifyInstance, _options: unknown, done: () => void): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/app/update-check',
    {
      schema: {
        tags: ['app'],
        summary: 'Whether a newer version of the app is available or required',
        querystring: UpdateCheckQuerySchema,
        response: withErrorResponses({ 200: UpdateCheckSchema }),
      },
    },
    async (request, reply) => {
      const check = await app.travelApi.request({
        method: 'GET',
        path: '/v1/app/update-check',
        query: request.query,
        auth: request.session?.kind === 'traveler' ? await travelerAuth(app, request) : { kind: 'none' },
        ...upstreamContext(request, reply),
        schema: UpdateCheckSchema,
      });
      return reply.header('cache-control', 'no-store').send(check);
    },
  );
  done();
}
