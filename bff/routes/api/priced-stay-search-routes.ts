import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PricedStaySearchEventSchema } from '#shared/api/priced-stay-search.ts';
import { searchRooms, StaySearchRequestSchema } from '#shared/upstream/stays.ts';
import { expensiveRouteRateLimit } from '../../plugins/rate-limit.ts';
import { openUpstreamForBrowser } from '../../streams/open-upstream-for-browser.ts';
import { truncatedEvent } from '../../streams/relay-sse-stream.ts';
import { runPricedStaySearch } from '../../streams/run-priced-stay-search.ts';
import { travelerAuth } from '../../travel-api/traveler-auth.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { eventStreamResponses } from './error-responses.ts';

/**
 * POST /api/stays/priced-search: one browser stream per stay search. The BFF runs the travel API's search,
 * prices each property it finds with its own signed fares call (STAY_FARES_CONCURRENCY at a time) and
 * sends both on this stream (shared/api/priced-stay-search.ts). Every upstream call of the search is
 * aborted when the browser goes away, which is also how a search the traveler replaces ends.
 */
export default async function pricedStaySearchRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/stays/priced-search',
    {
      schema: {
        body: StaySearchRequestSchema,
        response: eventStreamResponses(PricedStaySearchEventSchema),
      },
      config: { rateLimit: expensiveRouteRateLimit(app.config, 'search') },
    },
    async (request, reply) => {
      const search = request.body;
      const auth = await travelerAuth(app, request);
      const upstreamCall = { auth, stream: true as const, retry: 'none' as const };
      const { body, connection, signal } = await openUpstreamForBrowser({
        reply,
        registry: app.sse,
        farewell: truncatedEvent('server-shutdown'),
        open: (abort) =>
          app.travelApi.request({
            ...upstreamCall,
            method: 'POST',
            path: '/v1/stays/search',
            body: search,
            ...upstreamContext(request, abort),
          }),
      });
      const rooms = searchRooms(search);
      const ending = await runPricedStaySearch({
        searchBody: body,
        openFares: (property, abort) =>
          app.travelApi.request({
            ...upstreamCall,
            method: 'POST',
            path: '/v1/stays/fares',
            body: {
              searchSolutionId: property.searchSolutionId,
              propertyId: property.propertyId,
              solutionKey: property.solutionKey,
              checkIn: search.checkIn,
              checkOut: search.checkOut,
              rooms,
              bookingProfile: search.bookingProfile,
              currency: search.currency,
            },
            ...upstreamContext(request, abort),
          }),
        write: (chunk) => connection.write(chunk),
        signal,
        concurrency: app.config.STAY_FARES_CONCURRENCY,
        idleTimeoutMs: app.config.SSE_RELAY_IDLE_TIMEOUT_MS,
        log: request.log,
      });
      if (ending === undefined || connection.closed) {
        request.log.info('browser left the priced stay search; its upstream calls were aborted');
        return;
      }
      connection.end(ending);
    },
  );
}
