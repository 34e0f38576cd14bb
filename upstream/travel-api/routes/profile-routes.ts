import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ProfilePatchSchema, ProfileSchema, type Profile } from '#shared/upstream/profile.ts';
import { ApiError } from '../api-error.ts';

/** GET /v1/profile and PATCH /v1/profile (additive). */
function profileRoutes(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const profileOf = (profile: Profile | undefined): Profile => {
    if (!profile) throw new ApiError('RESOURCE_NOT_FOUND', { message: 'Profile not found' });
    return profile;
  };

  app.get(
    '/v1/profile',
    { preParsing: app.requireTraveler, schema: { response: { 200: ProfileSchema } } },
    (request) => profileOf(app.travelers.profile(travelerId(request.traveler))),
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
        throw new ApiError('VALIDATION_ERROR', {
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
      return profileOf(app.travelers.updateProfile(travelerId(request.traveler), request.body));
    },
  );
  done();
}

/** The guard has run: a missing traveler here is a wiring mistake, not a client error. */
export function travelerId(traveler: { id: string } | undefined): string {
  if (!traveler) throw new Error('route reached without the traveler guard');
  return traveler.id;
}

export default fp(profileRoutes, { name: 'profile-routes', dependencies: ['traveler-auth', 'travelers'] });
