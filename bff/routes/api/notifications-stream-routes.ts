import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { encodeSseEvent } from '#shared/sse.ts';
import {
  NotificationStreamEventSchema,
  NotificationStreamQuerySchema,
  NotificationStreamVisibilitySchema,
} from '#shared/api/notification-stream-events.ts';
import { AppError } from '../../errors.ts';
import { signedInTraveler } from '../../sessions/session-plugin.ts';
import type { HubEvent, HubSubscriber } from '../../notifications/notification-hub.ts';
import { encodeReconnect, encodeSessionEnded, hubEventFrame } from '../../notifications/encode-hub-event.ts';
import { hijackForStream, type SseConnection } from '../../streams/sse-connection.ts';
import { SseFrame } from '../../streams/sse-frame.ts';
import { eventStreamResponses, NoContentSchema, routeSchema } from './error-responses.ts';

/** The reconnection delay a browser is given on every notification stream. */
const CLIENT_RETRY_MS = 3000;
const CLIENT_RETRY = new SseFrame(encodeSseEvent({ retry: CLIENT_RETRY_MS }));
/**
 * A draining instance asks each browser to reconnect at once (another instance answers), each after its
 * own delay within this spread, so that the instances that stay are not met by every tab in one instant.
 */
const HANDOVER_SPREAD_MS = 500;

/**
 * One browser stream as the hub sees it. A class rather than closures over the request: an idle
 * stream keeps only its connection and two ids, and every delivery writes the event's shared frame.
 */
class StreamSubscriber implements HubSubscriber {
  readonly sessionId: string;
  readonly tabId: string | undefined;
  readonly #connection: SseConnection;

  constructor(sessionId: string, tabId: string | undefined, connection: SseConnection) {
    this.sessionId = sessionId;
    this.tabId = tabId;
    this.#connection = connection;
  }

  deliver(event: HubEvent): boolean {
    return this.#connection.write(hubEventFrame(event));
  }

  endSession(reason: string): void {
    this.#connection.end(encodeSessionEnded(reason));
  }
}

/**
 * GET /api/notifications/stream: the traveler's notifications as SSE (`id:` = notification id), fed by
 * the hub; Last-Event-ID (header, or `lastEventId` for fetch readers) resumes. `?tab=` and `?visible=1`
 * tie the stream to a tab whose visibility POST /api/notifications/stream/visibility keeps current.
 */
export default async function notificationsStreamRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const openPerSession = new Map<string, number>();

  routes.get(
    '/api/notifications/stream',
    {
      schema: {
        tags: ['notifications'],
        summary: "The traveler's notifications as they happen (Last-Event-ID resumes)",
        querystring: NotificationStreamQuerySchema,
        response: eventStreamResponses(NotificationStreamEventSchema),
      },
    },
    async (request, reply) => {
      const { sessionId, travelerId } = signedInTraveler(request);
      if (app.sse.closing) {
        throw new AppError('SERVICE_UNAVAILABLE', {
          message: 'The server is restarting. Reconnect in a moment.',
          retryAfterSeconds: Math.ceil(app.config.SSE_SHUTDOWN_RETRY_MS / 1000),
        });
      }
      const open = openPerSession.get(sessionId) ?? 0;
      if (open >= app.config.SSE_MAX_STREAMS_PER_SESSION) {
        throw new AppError('RATE_LIMIT_EXCEEDED', {
          message: 'Too many notification streams are open in this browser. Close a tab and retry.',
          retryAfterSeconds: 30,
        });
      }
      const header = request.headers['last-event-id'];
      const lastEventId =
        (typeof header === 'string' && header !== '' ? header : undefined) ?? request.query.lastEventId;

      const requestId = request.id;
      openPerSession.set(sessionId, open + 1);
      // Each browser gets its own delay in [retry, 2 x retry): a restart is not met by every tab at once.
      const shutdownRetryMs = Math.round(app.config.SSE_SHUTDOWN_RETRY_MS * (1 + Math.random()));
      const connection = app.sse.connect(
        hijackForStream(reply),
        encodeReconnect(shutdownRetryMs),
        request,
        encodeReconnect(Math.floor(Math.random() * HANDOVER_SPREAD_MS)),
      );
      connection.open();
      connection.write(CLIENT_RETRY);
      const unsubscribe = app.notificationHub.subscribe({
        travelerId,
        subscriber: new StreamSubscriber(sessionId, request.query.tab, connection),
        visible: request.query.visible === '1',
        lastEventId,
      });
      // Holds the ids it needs, not the request: Fastify's request and reply are not kept for the stream's life.
      connection.onClose((reason) => {
        unsubscribe();
        const left = (openPerSession.get(sessionId) ?? 1) - 1;
        if (left > 0) openPerSession.set(sessionId, left);
        else openPerSession.delete(sessionId);
        if (reason === 'slow-consumer')
          app.log.warn({ reqId: requestId }, 'notification stream cut off: the browser did not read');
      });
    },
  );

  routes.post(
    '/api/notifications/stream/visibility',
    {
      schema: routeSchema(
        'notifications',
        "A tab's visibility, for which tab shows the toast",
        { body: NotificationStreamVisibilitySchema },
        { 204: NoContentSchema },
      ),
    },
    async (request, reply) => {
      app.notificationHub.setVisibility(
        signedInTraveler(request).sessionId,
        request.body.tab,
        request.body.visible,
      );
      return reply.code(204).send(null);
    },
  );

  // Development and demo stats (counts only): how many browser streams this browser (its session) holds,
  // and across sessions, so a test or a demo sees one stream per browser however many tabs are open.
  if (app.config.NODE_ENV !== 'production' || app.config.DEMO_MODE) {
    routes.get(
      '/api/notifications/stream/stats',
      {
        schema: {
          tags: ['notifications'],
          summary: 'Open notification streams: this browser’s and per session (development and demo only)',
          response: { 200: StreamStatsSchema },
        },
      },
      (request) => {
        const counts = [...openPerSession.values()];
        return {
          thisBrowser: request.session ? (openPerSession.get(request.session.id) ?? 0) : 0,
          sessions: counts.length,
          streams: counts.reduce((sum, count) => sum + count, 0),
          mostInOneSession: Math.max(0, ...counts),
        };
      },
    );
  }
}

const StreamStatsSchema = z.object({
  thisBrowser: z.number().int().min(0),
  sessions: z.number().int().min(0),
  streams: z.number().int().min(0),
  mostInOneSession: z.number().int().min(0),
});
