import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CalendarFeedAddressSchema, CalendarFeedStatusSchema } from '#shared/api/calendar-feed.ts';
import { feedTokenHash, newFeedToken } from '../../calendar-feed/calendar-feed-store.ts';
import { signedInTraveler } from '../../sessions/session-plugin.ts';
import { calendarFeedUrl } from '../calendar-routes.ts';
import { NoContentSchema, routeSchema } from './error-responses.ts';

/**
 * The signed-in traveler's calendar feed: GET /api/calendar-feed (on or off), POST (a new address: turns
 * the feed on, or rotates it, revoking the earlier address) and DELETE (turns it off, revoking it). The
 * address is in the POST's answer only: the BFF keeps a hash of its token, never the token.
 */
export default async function calendarFeedRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { store } = app.calendarFeeds;

  routes.get(
    '/api/calendar-feed',
    {
      schema: routeSchema(
        'calendar',
        'Whether the calendar feed is on',
        {},
        { 200: CalendarFeedStatusSchema },
      ),
    },
    async (request, reply) => {
      const feed = await store.findByTraveler(signedInTraveler(request).travelerId);
      reply.header('cache-control', 'no-store');
      return { enabled: feed !== undefined, createdAt: feed?.createdAt ?? null };
    },
  );

  routes.post(
    '/api/calendar-feed',
    {
      schema: routeSchema(
        'calendar',
        'A new private address for the calendar feed (turns it on; revokes any earlier address)',
        {},
        { 200: CalendarFeedAddressSchema },
      ),
    },
    async (request, reply) => {
      const { travelerId } = signedInTraveler(request);
      const token = newFeedToken();
      const createdAt = new Date().toISOString();
      await store.enable(travelerId, feedTokenHash(token), createdAt);
      request.log.info({ travelerId }, 'calendar feed address issued');
      reply.header('cache-control', 'no-store');
      return { url: calendarFeedUrl(app.config.PUBLIC_ORIGIN, token), createdAt };
    },
  );

  routes.delete(
    '/api/calendar-feed',
    {
      schema: routeSchema('calendar', 'Turn the calendar feed off', {}, { 204: NoContentSchema }),
    },
    async (request, reply) => {
      const { travelerId } = signedInTraveler(request);
      if (await store.disable(travelerId)) request.log.info({ travelerId }, 'calendar feed turned off');
      return reply.code(204).send(null);
    },
  );
}
