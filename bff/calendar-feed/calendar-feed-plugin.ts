import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TripDetailsSchema, TripsPageSchema, type TripDetails } from '#shared/upstream/trips.ts';
import { MAX_PAGE_LIMIT } from '#shared/upstream/pagination.ts';
import { AppError } from '../errors.ts';
import type { CalendarFeedStore } from './calendar-feed-store.ts';
import { RedisCalendarFeedStore } from './calendar-feed-store.redis.ts';
import { SqliteCalendarFeedStore } from './calendar-feed-store.sqlite.ts';
import { segmentEvents, tripCalendar } from './trip-calendar.ts';

/** Trips read at once for a feed; more would be a burst of calls for one calendar refresh. */
const TRIP_READS_AT_ONCE = 4;
/** How long a calendar app should wait after the traveler has no session to read their trips with. */
const NO_SESSION_RETRY_SECONDS = 3600;

export interface CalendarFeeds {
  readonly store: CalendarFeedStore;
  /** The traveler's trips as iCalendar text, read with one of their live sessions. */
  render(travelerId: string, context: { requestId: string; log: FastifyBaseLogger }): Promise<string>;
}

function noSessionError(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', {
    status: 503,
    message: 'The calendar is brought up to date while you are signed in to Wayfare. Sign in to refresh it.',
    recoveryAction: 'RETRY_LATER',
    retryAfterSeconds: NO_SESSION_RETRY_SECONDS,
  });
}

/**
 * Decorates `app.calendarFeeds`: the feeds (SQLite, or Redis for a fleet) and the calendar of a
 * traveler's trips. The travel API answers only with a traveler's bearer, so a feed reads the trips with
 * the access token of the traveler's most recently active session (refreshed as any other call would);
 * it never touches the session's idle timer. Without a live session it answers 503 RETRY_LATER and
 * calendar apps keep the events of their last refresh (docs/decisions.md).
 */
async function calendarFeedPlugin(app: FastifyInstance): Promise<void> {
  const store: CalendarFeedStore = app.redis
    ? new RedisCalendarFeedStore(app.redis)
    : new SqliteCalendarFeedStore(app.config.DATA_DIR);

  const accessTokenOf = async (travelerId: string): Promise<string> => {
    const sessions = (await app.sessions.store.findBySubject(travelerId))
      .filter((session) => session.kind === 'traveler' && session.travelerId === travelerId)
      .sort((a, b) => b.lastSeenAt - a.lastSeenAt);
    for (const session of sessions) {
      try {
        return await app.auth.accessTokenForSession(session.id);
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 401) throw error;
      }
    }
    throw noSessionError();
  };

  const readTrips = async (
    travelerId: string,
    { requestId, log }: { requestId: string; log: FastifyBaseLogger },
  ): Promise<TripDetails[]> => {
    const auth = { kind: 'bearer' as const, token: await accessTokenOf(travelerId) };
    const page = await app.travelApi.request({
      method: 'GET',
      path: '/v1/trips/page',
      query: { limit: MAX_PAGE_LIMIT, offset: 0 },
      schema: TripsPageSchema,
      auth,
      requestId,
      log,
      retry: 'idempotent',
    });
    const trips: TripDetails[] = [];
    for (let start = 0; start < page.items.length; start += TRIP_READS_AT_ONCE) {
      const batch = page.items.slice(start, start + TRIP_READS_AT_ONCE);
      trips.push(
        ...(await Promise.all(
          batch.map((trip) =>
            app.travelApi.request({
              method: 'GET',
              path: `/v1/trips/${encodeURIComponent(trip.tripId)}`,
              schema: TripDetailsSchema,
              auth,
              requestId,
              log,
              retry: 'idempotent',
            }),
          ),
        )),
      );
    }
    return trips;
  };

  const feeds: CalendarFeeds = {
    store,
    async render(travelerId, context) {
      const events = segmentEvents(await readTrips(travelerId, context), app.config.PUBLIC_ORIGIN);
      return tripCalendar(events, await store.sequences(travelerId, events));
    },
  };
  app.decorate('calendarFeeds', feeds);
  app.addHook('onClose', () => store.close());
}

export default fp(calendarFeedPlugin, {
  name: 'calendar-feed',
  fastify: '5.x',
  dependencies: ['session', 'auth'],
  decorators: { fastify: ['config', 'redis', 'sessions', 'auth', 'travelApi'] },
});

declare module 'fastify' {
  interface FastifyInstance {
    calendarFeeds: CalendarFeeds;
  }
}
