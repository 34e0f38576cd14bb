import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FEED_TOKEN_PATTERN, feedTokenHash } from '../calendar-feed/calendar-feed-store.ts';
import { AppError } from '../errors.ts';
import { anonymousRouteRateLimit } from '../plugins/rate-limit.ts';
import { routeSchema } from './api/error-responses.ts';

/** Requests per minute one address may make for feeds: a calendar app refreshes hourly at most. */
const FEED_REQUESTS_PER_MINUTE = 60;
const FEED_FILE_SUFFIX = '.ics';

/** The address of a feed: the token is the only secret, in the path (calendar apps send no headers). */
export function calendarFeedUrl(publicOrigin: string, token: string): string {
  return new URL(`/calendar/${token}${FEED_FILE_SUFFIX}`, publicOrigin).href;
}

/** One answer for every address that is not a current feed: malformed, revoked, rotated or turned off. */
function unknownFeed(): AppError {
  return new AppError('RESOURCE_NOT_FOUND', {
    status: 404,
    message:
      'This calendar address no longer works. Turn the calendar feed on again in your Wayfare profile.',
    recoveryAction: 'BLOCKED',
  });
}

const FeedParamsSchema = z.object({ file: z.string().max(64) });

/**
 * GET /calendar/:token.ics: the traveler's trips as iCalendar, for calendar apps. No session cookie and
 * no anti-forgery header: the unguessable token is the credential, and it only ever opens its own
 * traveler's trips. Limited per client address; `Cache-Control: private, no-cache` with an ETag, so a
 * calendar app that revalidates gets 304 while nothing changed.
 */
export default async function calendarRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/calendar/:file',
    {
      config: {
        rateLimit: anonymousRouteRateLimit(
          app.config,
          Math.min(FEED_REQUESTS_PER_MINUTE, app.config.RATE_LIMIT_ANONYMOUS_PER_MINUTE),
        ),
      },
      schema: {
        ...routeSchema(
          'calendar',
          "The traveler's trips as an iCalendar feed (text/calendar)",
          { params: FeedParamsSchema },
          { 200: z.string().describe('text/calendar'), 304: z.null().describe('Not modified') },
        ),
        produces: ['text/calendar'],
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const token = file.endsWith(FEED_FILE_SUFFIX) ? file.slice(0, -FEED_FILE_SUFFIX.length) : '';
      if (!FEED_TOKEN_PATTERN.test(token)) throw unknownFeed();
      const feed = await app.calendarFeeds.store.findByTokenHash(feedTokenHash(token));
      if (!feed) throw unknownFeed();
      const calendar = await app.calendarFeeds.render(feed.travelerId, {
        requestId: request.id,
        log: request.log,
      });
      const etag = `"${createHash('sha256').update(calendar).digest('base64url')}"`;
      reply
        .header('cache-control', 'private, no-cache')
        .header('etag', etag)
        .header('x-robots-tag', 'noindex');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="wayfare-trips.ics"')
        .send(calendar);
    },
  );
}
