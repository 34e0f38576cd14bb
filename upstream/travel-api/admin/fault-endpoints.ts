import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FaultPatchSchema, FaultsSchema, TravelerFaultPatchSchema, TravelerFaultsSchema } from '../faults.ts';

const TravelerParamsSchema = z.object({ travelerId: z.uuid() });

/**
 * GET, PUT (merge, optionally for durationSeconds) and DELETE (clear all, every traveler's too) of the
 * injected faults; GET and PUT of the faults one traveler's requests alone meet.
 */
function faultEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get('/admin/faults', { schema: { response: { 200: FaultsSchema } } }, () => app.faults.current);
  app.put(
    '/admin/faults',
    { schema: { body: FaultPatchSchema, response: { 200: FaultsSchema } } },
    (request) => app.faults.set(request.body),
  );
  app.delete('/admin/faults', { schema: { response: { 200: FaultsSchema } } }, () => app.faults.clear());
  app.get(
    '/admin/travelers/:travelerId/faults',
    { schema: { params: TravelerParamsSchema, response: { 200: TravelerFaultsSchema } } },
    (request) => app.faults.ownedBy(request.params.travelerId),
  );
  app.put(
    '/admin/travelers/:travelerId/faults',
    {
      schema: {
        params: TravelerParamsSchema,
        body: TravelerFaultPatchSchema,
        response: { 200: TravelerFaultsSchema },
      },
    },
    (request) => app.faults.setFor(request.params.travelerId, request.body),
  );
  done();
}

export default fp(faultEndpoints, { name: 'fault-endpoints', dependencies: ['faults', 'admin-gate'] });
