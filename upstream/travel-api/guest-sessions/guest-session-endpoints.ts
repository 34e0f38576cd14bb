import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GuestSessionSchema } from '#shared/upstream/guest-session.ts';

/** POST /v1/guest-sessions (additive): signed, no bearer; a guest token for POST /v1/stays/fares. */
function guestSessionEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/v1/guest-sessions',
    { schema: { response: { 201: GuestSessionSchema } } },
    async (_request, reply) => reply.code(201).send(app.guests.create()),
  );
  done();
}

export default fp(guestSessionEndpoints, {
  name: 'guest-session-endpoints',
  dependencies: ['bearer-auth'],
});
