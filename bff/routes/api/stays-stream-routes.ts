import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { StayFaresRequestSchema, StaySearchRequestSchema } from '#shared/upstream/stays.ts';
import { expensiveRouteRateLimit } from '../../plugins/rate-limit.ts';
import { relaySseStream } from '../../streams/relay-sse-stream.ts';

/** How an upstream call authenticates the traveler (or guest): the travel API client's own type. */
type UpstreamAuth = Parameters<FastifyInstance['travelApi']['request']>[0]['auth'];

/**
 * POST /api/stays/search and POST /api/stays/fares: the SPA reads them with fetch (EventSource cannot
 * POST), the BFF signs the one upstream POST and relays its events as they arrive. A finished or failed
 * search is never re-sent by the BFF: only the traveler starts another.
 */
export default function staysStreamRoutes(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const relay = (
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    body: unknown,
    auth: UpstreamAuth,
  ) =>
    relaySseStream({
      request,
      reply,
      registry: app.sse,
      idleTimeoutMs: app.config.SSE_RELAY_IDLE_TIMEOUT_MS,
      open: (signal) =>
        app.travelApi.request({
          method: 'POST',
          path,
          body,
          auth,
          requestId: request.id,
          signal,
          stream: true,
          retry: 'none',
          log: request.log,
        }),
    });

  const travelerAuth = async (request: FastifyRequest): Promise<UpstreamAuth> => ({
    kind: 'bearer',
    token: await app.auth.accessTokenFor(request),
    refresh: () => app.auth.forceRefresh(request),
  });

  routes.post(
    '/api/stays/search',
    {
      schema: { body: StaySearchRequestSchema },
      onRequest: app.requireSession,
      config: { rateLimit: expensiveRouteRateLimit(app.config, 'search') },
    },
    async (request, reply) =>
      relay(request, reply, '/v1/stays/search', request.body, await travelerAuth(request)),
  );

  routes.post(
    '/api/stays/fares',
    {
      schema: { body: StayFaresRequestSchema },
      onRequest: app.requireSession,
      config: { rateLimit: expensiveRouteRateLimit(app.config, 'fares') },
    },
    async (request, reply) => {
      const auth: UpstreamAuth =
        request.session?.kind === 'guest'
          ? { kind: 'guest', token: await app.auth.guestTokenFor(request) }
          : await travelerAuth(request);
      return relay(request, reply, '/v1/stays/fares', request.body, auth);
    },
  );
  return Promise.resolve();
}
