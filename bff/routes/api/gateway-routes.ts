import type { FastifyInstance } from 'fastify';
import appUpdateRoute from './app-update-routes.ts';
import bookingOperationsRoutes from './booking-operations-routes.ts';
import bookingsRoute from './bookings-routes.ts';
import demoRoutes from './demo-routes.ts';
import flightsRoutes from './flights-routes.ts';
import guestSessionRoute from './guest-session-routes.ts';
import notificationsRoutes from './notifications-routes.ts';
import profileRoutes from './profile-routes.ts';
import stayDestinationsRoute from './stay-destinations-routes.ts';
import tripSegmentRoute from './trip-segment-routes.ts';

/** The /api routes that call the travel API with JSON: one signed upstream call each. */
export default async function gatewayRoutes(app: FastifyInstance): Promise<void> {
  await app.register(appUpdateRoute);
  await app.register(flightsRoutes);
  await app.register(profileRoutes);
  await app.register(bookingsRoute);
  await app.register(bookingOperationsRoutes);
  await app.register(tripSegmentRoute);
  await app.register(stayDestinationsRoute);
  await app.register(notificationsRoutes);
  await app.register(guestSessionRoute);
  await app.register(demoRoutes);
}
