import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BOOKING_LEVERS } from '#shared/upstream/booking-operations.ts';
import { LocaleSchema } from '#shared/upstream/profile.ts';
import { ServiceError } from '../service-error.ts';
import { TravelerFaultsSchema } from '../faults.ts';
import { travelerTables } from './traveler-state.ts';

const TravelerParamsSchema = z.object({ travelerId: z.uuid() });

export const CreateTravelerRequestSchema = z.object({
  email: z.email().max(320).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  /** The profile's locale instead of the generated one (a test that reads the app in one language). */
  locale: LocaleSchema.optional(),
});

export const TravelerStateSchema = z.object({
  travelerId: z.uuid(),
  /** Every stored row of the traveler, by table: profile, bookings, trips and segments, inbox and read marks, booking records. */
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  /** The booking levers armed for the traveler's next calls. */
  armedLevers: z.array(z.enum(BOOKING_LEVERS)),
  /** The faults set for the traveler's requests alone (PUT /admin/travelers/:travelerId/faults). */
  faults: TravelerFaultsSchema,
  /** SHA-256 (hex) of the rest: equal digests, equal states. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
export type TravelerState = z.infer<typeof TravelerStateSchema>;

export const TravelerDigestSchema = TravelerStateSchema.pick({ travelerId: true, digest: true });

/**
 * `PUT /admin/travelers/:travelerId` makes sure the service has the traveler (generated as on first sight,
 * with the locale asked for if any; nothing changed when it exists) and `GET /admin/travelers/:travelerId` reads everything it holds of them,
 * so a test can tell whether anything of a traveler changed; `GET /admin/travelers/:travelerId/digest`
 * answers only the state's digest, for a check that reads the whole state only when it changed.
 */
function travelerAdminEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const stateOf = (travelerId: string): TravelerState => {
    const tables = travelerTables(app.db, travelerId);
    if (!tables)
      throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'The service has not seen this traveler' });
    const held = {
      tables,
      armedLevers: app.bookingLevers.armed(travelerId),
      faults: app.faults.ownedBy(travelerId),
    };
    const digest = createHash('sha256').update(JSON.stringify(held)).digest('hex');
    return { travelerId, ...held, digest };
  };

  app.put(
    '/admin/travelers/:travelerId',
    {
      schema: {
        params: TravelerParamsSchema,
        body: CreateTravelerRequestSchema.nullish(),
        response: { 200: TravelerStateSchema },
      },
    },
    (request) => {
      const travelerId = request.params.travelerId.toLowerCase();
      if (!app.travelers.profile(travelerId)) {
        const { email, name, locale } = request.body ?? {};
        app.travelers.ensure({ id: travelerId, email, name });
        if (locale) app.travelers.updateProfile(travelerId, { locale });
      }
      return stateOf(travelerId);
    },
  );

  app.get(
    '/admin/travelers/:travelerId',
    { schema: { params: TravelerParamsSchema, response: { 200: TravelerStateSchema } } },
    (request) => stateOf(request.params.travelerId.toLowerCase()),
  );

  app.get(
    '/admin/travelers/:travelerId/digest',
    { schema: { params: TravelerParamsSchema, response: { 200: TravelerDigestSchema } } },
    (request) => {
      const { travelerId, digest } = stateOf(request.params.travelerId.toLowerCase());
      return { travelerId, digest };
    },
  );
  done();
}

export default fp(travelerAdminEndpoints, {
  name: 'traveler-admin-endpoints',
  dependencies: ['admin-gate', 'faults', 'travelers', 'quotes'],
});
