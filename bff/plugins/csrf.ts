import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { routePath } from '#shared/route-path.ts';

/** The custom header every state-changing or token-attaching call carries (the SPA's fetch sets it). */
export const ANTI_FORGERY_HEADER = 'x-requested-with';
export const ANTI_FORGERY_VALUE = 'wayfare';

/** Reads that change nothing and attach no traveler token: open to plain navigations and probes. */
const EXEMPT_GETS = new Set(['/api/session', '/api/app/update-check', '/api/push/public-key']);
/** The OpenAPI document and its viewer (development only) are static reads a developer opens in a tab. */
const EXEMPT_GET_PREFIXES = ['/api/docs/'];
const SAME_SITE_FETCHES = new Set(['same-origin', 'none']);

/** Why a request fails the anti-forgery rule, or undefined when it passes. */
export function antiForgeryFailure(request: FastifyRequest, publicOrigin: string): string | undefined {
  if (request.headers[ANTI_FORGERY_HEADER] !== ANTI_FORGERY_VALUE) return 'missing anti-forgery header';
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== publicOrigin) return 'cross-origin request';
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && !SAME_SITE_FETCHES.has(fetchSite)) return 'cross-site request';
  return undefined;
}

export function isExemptFromAntiForgery(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return (
    EXEMPT_GETS.has(path) ||
    path === '/api/docs' ||
    EXEMPT_GET_PREFIXES.some((prefix) => path.startsWith(prefix))
  );
}

export function csrfRejectedError(): AppError {
  return new AppError('CSRF_REJECTED', {
    status: 403,
    message: 'This request was refused because it did not come from the app.',
    recoveryAction: 'BLOCKED',
  });
}

/**
 * One gate for the /api subtree (and POST /auth/logout): the custom header forces a CORS preflight on
 * any cross-origin attempt, and Origin / Sec-Fetch-Site, when the browser sends them, must be ours. It
 * decides on the route the router matched, never on the raw URL, so `/%61pi/...` is judged as `/api/...`.
 */
async function csrfPlugin(app: FastifyInstance): Promise<void> {
  const publicOrigin = new URL(app.config.PUBLIC_ORIGIN).origin;

  const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const reason = antiForgeryFailure(request, publicOrigin);
    if (!reason) return undefined;
    request.log.warn({ reason, method: request.method, url: request.url }, 'anti-forgery check failed');
    const error = csrfRejectedError();
    return reply.code(error.status).send(error.envelope);
  };
  app.decorate('antiForgery', guard);

  app.addHook('onRequest', async (request, reply) => {
    const path = routePath(request);
    const guarded =
      (path.startsWith('/api/') && !isExemptFromAntiForgery(request.method, path)) ||
      (path === '/auth/logout' && request.method === 'POST');
    if (guarded) return guard(request, reply);
    return undefined;
  });
}

export default fp(csrfPlugin, { name: 'csrf', fastify: '5.x', decorators: { fastify: ['config'] } });

declare module 'fastify' {
  interface FastifyInstance {
    /** The anti-forgery check as a preHandler, for routes outside /api that need it. */
    antiForgery: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
  }
}
