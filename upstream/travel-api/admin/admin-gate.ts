import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ServiceError } from '../service-error.ts';
import { routePath } from '#shared/route-path.ts';

/**
 * One gate for /admin/*: answered only when TRAVEL_API_ADMIN_TOKEN is set, and only with that bearer token.
 * Without the setting the subtree does not exist (404). It decides on the route the router matched, so
 * `/%61dmin/...` is judged as `/admin/...`.
 */
function adminGate(app: FastifyInstance, _options: unknown, done: () => void): void {
  const token = app.travelConfig.TRAVEL_API_ADMIN_TOKEN;
  const expected = token === undefined ? undefined : digest(token);
  app.addHook('onRequest', (request, _reply, next) => {
    next(adminRejection(request));
  });

  const adminRejection = (request: FastifyRequest): ServiceError | undefined => {
    const path = routePath(request);
    if (!(path === '/admin' || path.startsWith('/admin/'))) return undefined;
    if (expected === undefined)
      return new ServiceError('RESOURCE_NOT_FOUND', { message: 'Resource not found' });
    const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
      return new ServiceError('UNAUTHORIZED', { message: 'Admin token required' });
    }
    return undefined;
  };
  done();
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export default fp(adminGate, { name: 'admin-gate' });
