import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppReleaseSchema, UpdateCheckQuerySchema, UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { AppReleaseStore } from './app-release-store.ts';

const TravelerParamsSchema = z.object({ travelerId: z.uuid() });
const TravelerReleaseSchema = AppReleaseSchema.pick({ latestVersion: true, releaseNotes: true }).strict();

/**
 * GET /v1/app/update-check (signed; a bearer is not needed, and when a traveler's is sent the answer is that
 * traveler's), PUT /admin/app-release to announce a version to everyone, and PUT and DELETE
 * /admin/travelers/:travelerId/app-release to announce one to a single traveler first.
 */
function appUpdateEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const releases = new AppReleaseStore(app.db, {
    latestVersion: app.travelConfig.TRAVEL_API_LATEST_APP_VERSION,
    minimumVersion: app.travelConfig.TRAVEL_API_MINIMUM_APP_VERSION,
  });

  app.get(
    '/v1/app/update-check',
    {
      preParsing: app.identifyTraveler,
      schema: { querystring: UpdateCheckQuerySchema, response: { 200: UpdateCheckSchema } },
    },
    (request) => releases.check(request.query.currentVersion, request.traveler?.id),
  );

  app.put(
    '/admin/app-release',
    { schema: { body: AppReleaseSchema, response: { 200: UpdateCheckSchema } } },
    (request) => releases.announce(request.body),
  );

  app.put(
    '/admin/travelers/:travelerId/app-release',
    {
      schema: {
        params: TravelerParamsSchema,
        body: TravelerReleaseSchema,
        response: { 200: UpdateCheckSchema },
      },
    },
    (request) => releases.announceTo(request.params.travelerId, request.body),
  );
  app.delete(
    '/admin/travelers/:travelerId/app-release',
    { schema: { params: TravelerParamsSchema, response: { 200: UpdateCheckSchema } } },
    (request) => releases.withdrawFrom(request.params.travelerId),
  );
  done();
}

export default fp(appUpdateEndpoints, {
  name: 'app-update-endpoints',
  dependencies: ['db', 'admin-gate', 'bearer-auth'],
});
