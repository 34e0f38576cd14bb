import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Request ids are minted here, never taken from the browser: an id the client chose could collide with
 * another request's or smuggle text into the logs. The same id goes upstream as X-Request-Id.
 */
export function generateRequestId(): string {
  return randomUUID();
}

async function requestIdPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (request, reply, next) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    next();
  });
}

/** Echoes the request id in every response, so a traveler's report can be matched with the logs. */
export const requestId = fp(requestIdPlugin, { name: 'request-id', fastify: '5.x' });
export default requestId;
