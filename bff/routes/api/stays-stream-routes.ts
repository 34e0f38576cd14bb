import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { StayFaresStreamEventSchema, StaySearchStreamEventSchema } from '#shared/api/stay-stream-events.ts';
import { StayFaresRequestSchema, StaySearchRequestSchema } from '#shared/upstream/stays.ts';
import { expensiveRouteRateLimit } from '../../plugins/rate-limit.ts';
import { relaySseStream } from '../../streams/relay-sse-stream.ts';
import type { UpstreamAuth } from '../../travel-api/travel-api.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { eventStreamResponses } from './error-responses.ts';

/**
 * POST /api/stays/search and POST /api/stays/fares: the SPA reads them with fetch (EventSource cannot
 * POST), the BFF signs the one upstream POST and relays its events as they arrive. A finished or failed
 * search is never re-sent by the BFF: only the traveler starts another.
 */
export default function staysStreamRoutes(app: FastifyInstance): Promise<void> {
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
          ...upstreamContext(request, signal),
          stream: true,
          retry: 'none',
        }),
    });

  routes.post(
    '/api/stays/search',
    {
      schema: {
        tags: ['stays'],
        summary: 'Stay search: the properties found, relayed as the travel API finds them',
        body: StaySearchRequestSchema,
        response: eventStreamResponses(StaySearchStreamEventSchema),
      },
      config: { rateLimit: expensiveRouteRateLimit(app.config, 'search') },
    },
    async (request, reply) =>
      relay(request, reply, '/v1/stays/search', request.body, await travelerAuth(app, request)),
  );

  routes.post(
    '/api/stays/fares',
    {
      schema: {
        tags: ['stays'],
        summary: "One hotel's fares, relayed as the travel API prices them",
        body: StayFaresRequestSchema,
        response: eventStreamResponses(StayFaresStreamEventSchema),
      },
      config: { rateLimit: expensiveRouteRateLimit(app.config, 'fares') },
    },
    async (request, reply) => {
      const auth: UpstreamAuth =
        request.session?.kind === 'guest'
          ? { kind: 'guest', token: await app.auth.guestTokenFor(request) }
          : await travelerAuth(app, request);
      return relay(request, reply, '/v1/stays/fares', request.body, auth);
    },
  );
  return Promise.resolve();
}
