import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ProfilePatchSchema, ProfileSchema } from '#shared/upstream/profile.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { withErrorResponses } from './error-responses.ts';

/** GET and PATCH /api/profile: the signed-in traveler's profile. */
export default function profileRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/profile',
    {
      schema: {
        tags: ['profile'],
        summary: 'The traveler’s profile',
        response: withErrorResponses({ 200: ProfileSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'GET',
        path: '/v1/profile',
        auth: await travelerAuth(app, request),
        ...upstreamContext(request, reply),
        schema: ProfileSchema,
      }),
  );

  routes.patch(
    '/api/profile',
    {
      schema: {
        tags: ['profile'],
        summary: 'Change some fields of the traveler’s profile',
        body: ProfilePatchSchema,
        response: withErrorResponses({ 200: ProfileSchema }),
      },
    },
    async (request, reply) =>
      app.travelApi.request({
        method: 'PATCH',
        path: '/v1/profile',
        body: request.body,
        auth: await travelerAuth(app, request),
        // Setting fields to values gives the same result however often it is applied.
        retry: 'idempotent',
        ...upstreamContext(request, reply),
        schema: ProfileSchema,
      }),
  );
  done();
}
