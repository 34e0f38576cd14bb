import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FaultPatchSchema, FaultsSchema } from '../faults.ts';

/** GET, PUT (merge, optionally for durationSeconds) and DELETE (clear all) of the injected faults. */
function adminFaultsRoutes(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get('/admin/faults', { schema: { response: { 200: FaultsSchema } } }, () => app.faults.current);
  app.put(
    '/admin/faults',
    { schema: { body: FaultPatchSchema, response: { 200: FaultsSchema } } },
    (request) => app.faults.set(request.body),
  );
  app.delete('/admin/faults', { schema: { response: { 200: FaultsSchema } } }, () => app.faults.clear());
  done();
}

export default fp(adminFaultsRoutes, { name: 'admin-faults-routes', dependencies: ['faults', 'admin-gate'] });
