import type { FastifyInstance } from 'fastify';
import appUpdateRoute from './app-update-routes.ts';
import bookingOperationsRoutes from './booking-operations-routes.ts';
import bookingsRoute from './bookings-routes.ts';
import demoRoutes, { demoStatusRoutes } from './demo-routes.ts';
import flightsRoutes from './flights-routes.ts';
import guestSessionRoute from './guest-session-routes.ts';
import notificationsRoutes from './notifications-routes.ts';
import profileRoutes from './profile-routes.ts';
import stayDestinationsRoute from './stay-destinations-routes.ts';
import tripSegmentRoute from './trip-segment-routes.ts';
import { sessionGated } from '../session-gate.ts';

/**
 * The /api routes that call the travel API with JSON: one signed upstream call each. The open reads
 * first, then one subtree behind the session gate for everything of the traveler's (or guest's).
 */
export default async function gatewayRoutes(app: FastifyInstance): Promise<void> {
  await app.register(appUpdateRoute);
  await app.register(guestSessionRoute);
  await app.register(demoStatusRoutes);
  await app.register(
    sessionGated(
      flightsRoutes,
      profileRoutes,
      bookingsRoute,
      bookingOperationsRoutes,
      tripSegmentRoute,
      stayDestinationsRoute,
      notificationsRoutes,
      demoRoutes,
    ),
  );
}
