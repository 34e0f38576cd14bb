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

/** Relays the one signed upstream POST of a stay stream to the browser, as its events arrive. */
function relayStayStream(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  upstream: { path: string; body: unknown; auth: UpstreamAuth },
) {
  return relaySseStream({
    request,
    reply,
    registry: app.sse,
    idleTimeoutMs: app.config.SSE_RELAY_IDLE_TIMEOUT_MS,
    open: (signal) =>
      app.travelApi.request({
        method: 'POST',
        ...upstream,
        ...upstreamContext(request, signal),
        stream: true,
        retry: 'none',
      }),
  });
}

/**
 * POST /api/stays/search and POST /api/stays/fares: the SPA reads them with fetch (EventSource cannot
 * POST), the BFF signs the one upstream POST and relays its events as they arrive. A finished or failed
 * search is never re-sent by the BFF: only the traveler starts another. The search is the signed-in
 * traveler's; the fares are also a guest session's (a shared stay link).
 */
export async function staySearchStreamRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
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
      relayStayStream(app, request, reply, {
        path: '/v1/stays/search',
        body: request.body,
        auth: await travelerAuth(app, request),
      }),
  );
}

/** POST /api/stays/fares, for the signed-in traveler or a guest session. */
export async function stayFaresStreamRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
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
      return relayStayStream(app, request, reply, { path: '/v1/stays/fares', body: request.body, auth });
    },
  );
}
