import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { plainText } from '#shared/plain-text.ts';
import { NOTIFICATION_EVENT_TYPES, NotificationSchema } from '#shared/upstream/notifications.ts';
import { SegmentDetailsSchema } from '#shared/upstream/trips.ts';
import { ServiceError } from '../service-error.ts';
import { DemoEvents } from './demo-events.ts';
import { TravelEventSimulator } from './travel-event-simulator.ts';

declare module 'fastify' {
  interface FastifyInstance {
    simulator: TravelEventSimulator;
  }
}

/** A traveler by sub (UUID) or by the email of a traveler the service has seen. */
const TravelerRefSchema = plainText().trim().min(1).max(320);

export const SimulateRequestSchema = z.object({
  traveler: TravelerRefSchema,
  type: z.enum(NOTIFICATION_EVENT_TYPES).default('SEGMENT_DELAYED'),
  minutes: z.number().int().min(1).max(1440).optional(),
  /** SEGMENT_DELAYED only: delay a flight or train long enough to miss what follows it in its trip. */
  breaksConnection: z.boolean().optional(),
  segmentId: z.uuid().optional(),
  gate: z
    .string()
    .regex(/^[A-Z]{0,2}\d{1,3}[A-Z]?$/)
    .optional(),
});

export const AdminNotificationRequestSchema = z.object({
  traveler: TravelerRefSchema,
  eventType: z.string().regex(/^[A-Z][A-Z0-9_]{1,63}$/),
  severity: z.string().regex(/^[a-z][a-z_]{1,31}$/),
  title: plainText().trim().min(1).max(200),
  body: plainText().trim().min(1).max(2000),
  tripId: z.uuid().optional(),
  segmentId: z.uuid().optional(),
});

const DispatchedSchema = z.object({
  notification: NotificationSchema,
  deliveredLive: z.number().int().min(0),
  pushed: z.boolean(),
});
const SimulatedSchema = DispatchedSchema.extend({ segment: SegmentDetailsSchema });

/**
 * The simulator's admin API (behind the admin gate: off unless TRAVEL_API_ADMIN_TOKEN is set), and the
 * demo events for recently active travelers when TRAVEL_API_DEMO_EVENTS_INTERVAL_SECONDS is set.
 */
function simulatorEndpoints(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const simulator = new TravelEventSimulator({
    trips: app.trips,
    travelers: app.travelers,
    notifications: app.notifications,
  });
  app.decorate('simulator', simulator);

  const intervalSeconds = app.travelConfig.TRAVEL_API_DEMO_EVENTS_INTERVAL_SECONDS;
  if (intervalSeconds > 0) {
    const demo = new DemoEvents({
      intervalSeconds,
      simulator,
      travelers: app.travelers,
      logger: app.log.child({ component: 'demo-events' }),
    });
    app.addHook('onReady', () => demo.start());
    app.addHook('preClose', () => demo.stop());
  }

  const travelerIdOf = (reference: string): string => {
    if (z.uuid().safeParse(reference).success) return reference.toLowerCase();
    const id = reference.includes('@') ? app.travelers.idByEmail(reference) : undefined;
    if (id === undefined) {
      throw new ServiceError('RESOURCE_NOT_FOUND', {
        message: 'No traveler with this email has called the service yet; pass the traveler id (sub)',
      });
    }
    return id;
  };

  app.post(
    '/admin/simulate',
    { schema: { body: SimulateRequestSchema, response: { 201: SimulatedSchema } } },
    async (request, reply) => {
      const { traveler, ...event } = request.body;
      const result = simulator.simulate({ travelerId: travelerIdOf(traveler), ...event });
      return reply.code(201).send({
        notification: result.notification,
        segment: result.segment,
        deliveredLive: result.live.delivered,
        pushed: result.pushed,
      });
    },
  );

  app.post(
    '/admin/notifications',
    { schema: { body: AdminNotificationRequestSchema, response: { 201: DispatchedSchema } } },
    async (request, reply) => {
      const { traveler, tripId, segmentId, ...content } = request.body;
      const travelerId = travelerIdOf(traveler);
      app.travelers.ensure({ id: travelerId, email: undefined, name: undefined });
      const segment =
        segmentId === undefined
          ? (simulator.defaultSegment(travelerId, 'SEGMENT_DELAYED') ?? app.trips.listSegments(travelerId)[0])
          : app.trips.listSegments(travelerId).find((candidate) => candidate.segmentId === segmentId);
      if (!segment || (tripId !== undefined && segment.tripId !== tripId)) {
        throw new ServiceError('RESOURCE_NOT_FOUND', { message: 'The traveler has no such segment' });
      }
      const result = app.notifications.dispatch({
        travelerId,
        tripId: segment.tripId,
        segmentId: segment.segmentId,
        ...content,
      });
      return reply.code(201).send({
        notification: result.notification,
        deliveredLive: result.live.delivered,
        pushed: result.pushed,
      });
    },
  );
  done();
}

export default fp(simulatorEndpoints, {
  name: 'simulator-endpoints',
  dependencies: ['travelers', 'admin-gate', 'notification-endpoints'],
});
