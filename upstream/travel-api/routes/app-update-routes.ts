import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppReleaseSchema, UpdateCheckQuerySchema, UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { AppReleaseStore } from '../app-update/app-release-store.ts';

/** GET /v1/app/update-check (signed, no bearer) and PUT /admin/app-release to announce a version. */
function appUpdateRoutes(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const releases = new AppReleaseStore(app.db, {
    latestVersion: app.travelConfig.TRAVEL_API_LATEST_APP_VERSION,
    minimumVersion: app.travelConfig.TRAVEL_API_MINIMUM_APP_VERSION,
  });

  app.get(
    '/v1/app/update-check',
    { schema: { querystring: UpdateCheckQuerySchema, response: { 200: UpdateCheckSchema } } },
    (request) => releases.check(request.query.currentVersion),
  );

  app.put(
    '/admin/app-release',
    { schema: { body: AppReleaseSchema, response: { 200: UpdateCheckSchema } } },
    (request) => releases.announce(request.body),
  );
  done();
}

export default fp(appUpdateRoutes, { name: 'app-update-routes', dependencies: ['db', 'admin-gate'] });
