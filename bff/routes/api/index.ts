import type { FastifyInstance, FastifyPluginAsync, onRequestHookHandler } from 'fastify';
import sessionRoute from '../auth/session-routes.ts';
import appUpdateRoute from './app-update-routes.ts';
import calendarFeedRoutes from './calendar-feed-routes.ts';
import createBookingRoute from './create-booking-routes.ts';
import demoRoutes, { demoStatusRoutes } from './demo-routes.ts';
import guestSessionRoute from './guest-session-routes.ts';
import notificationsStreamRoutes from './notifications-stream-routes.ts';
import passThroughRoutes from './pass-through-routes.ts';
import pricedStaySearchRoute from './priced-stay-search-routes.ts';
import pushRoutes, { pushPublicKeyRoutes } from './push-routes.ts';
import rebookingRoutes from './rebooking-routes.ts';
import { stayFaresStreamRoute, staySearchStreamRoute } from './stays-stream-routes.ts';

/**
 * Every /api route, by who may call it: the open routes, then one subtree behind the session gate (a
 * traveler or a guest), and inside it one subtree behind the traveler gate (a guest is refused too). A
 * gate is set once on its subtree: each route registered in it gets the gate's onRequest hook, so the
 * guard sits on every route (and shows in the route table), never on a URL prefix, and no handler
 * repeats it. The anti-forgery gate covers the whole /api prefix (bff/plugins/csrf.ts).
 */
export default async function apiRoutes(app: FastifyInstance): Promise<void> {
  await registerAll(app, OPEN);
  await app.register(sessionGated);
}

/** Open to every browser. */
const OPEN = [sessionRoute, appUpdateRoute, guestSessionRoute, demoStatusRoutes, pushPublicKeyRoutes];
/** Behind the session gate: a signed-in traveler or a guest session (which prices a shared stay's fares). */
const FOR_A_SESSION = [stayFaresStreamRoute];
/** Behind the traveler gate too: a signed-in traveler only, a guest session is refused. */
const FOR_A_TRAVELER = [
  passThroughRoutes,
  createBookingRoute,
  rebookingRoutes,
  staySearchStreamRoute,
  pricedStaySearchRoute,
  notificationsStreamRoutes,
  pushRoutes,
  demoRoutes,
  calendarFeedRoutes,
];

async function sessionGated(app: FastifyInstance): Promise<void> {
  gateEveryRoute(app, app.requireSession);
  await registerAll(app, FOR_A_SESSION);
  await app.register(travelerGated);
}

async function travelerGated(app: FastifyInstance): Promise<void> {
  gateEveryRoute(app, app.requireTravelerSession);
  await registerAll(app, FOR_A_TRAVELER);
}

async function registerAll(app: FastifyInstance, plugins: readonly FastifyPluginAsync[]): Promise<void> {
  for (const plugin of plugins) await app.register(plugin);
}

/**
 * Puts `gate` on every route registered in `app` from now on, after the gates of the enclosing subtrees
 * (whose onRoute hooks run first) and before the route's own onRequest hooks.
 */
function gateEveryRoute(app: FastifyInstance, gate: FastifyInstance['requireSession']): void {
  const enclosing = new Set<unknown>([app.requireSession, app.requireTravelerSession]);
  app.addHook('onRoute', (route) => {
    const hooks = [route.onRequest ?? []].flat() as onRequestHookHandler[];
    const gates = hooks.filter((hook) => enclosing.has(hook));
    const own = hooks.filter((hook) => !enclosing.has(hook));
    route.onRequest = [...gates, gate, ...own];
  });
}
