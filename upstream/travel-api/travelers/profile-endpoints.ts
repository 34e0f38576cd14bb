import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ProfilePatchSchema, ProfileSchema, type Profile } from '#shared/upstream/profile.ts';
import { ServiceError } from '../service-error.ts';

/** GET /v1/profile and PATCH /v1/profile (additive). */
function profileEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const profileOf = (profile: Profile | undefined): Profile => {
    if (!profile) throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'Profile not found' });
    return profile;
  };

  app.get(
    '/v1/profile',
    { preParsing: app.requireTraveler, schema: { response: { 200: ProfileSchema } } },
    (request) => profileOf(app.travelers.profile(request.travelerId)),
  );

  app.patch(
    '/v1/profile',
    {
      preParsing: app.requireTraveler,
      schema: { body: ProfilePatchSchema, response: { 200: ProfileSchema } },
    },
    (request) => {
      const { homeAirport } = request.body;
      if (homeAirport && !app.inventory.airport(homeAirport)) {
        throw new ServiceError('VALIDATION_ERROR', {
          message: 'The request failed validation',
          details: [
            {
              field: 'homeAirport',
              code: 'unknown_airport',
              message: `No airport with the code ${homeAirport}`,
            },
          ],
        });
      }
      return profileOf(app.travelers.updateProfile(request.travelerId, request.body));
    },
  );
  done();
}

export default fp(profileEndpoints, {
  name: 'profile-endpoints',
  dependencies: ['bearer-auth', 'travelers'],
});
