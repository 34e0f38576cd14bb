import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DemoActionResultSchema,
  DemoAppUpdateRequestSchema,
  DemoFaultRequestSchema,
  DemoSegmentDelayRequestSchema,
  DemoStatusSchema,
  type DemoActionResult,
  type DemoReleaseNotes,
} from '#shared/api/demo.ts';
import { UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { signedInTraveler } from '../../sessions/session-plugin.ts';
import { createTravelApiAdmin } from '../../travel-api/travel-api-admin.ts';
import { upstreamContext } from '../../travel-api/upstream-context.ts';
import { routeSchema } from './error-responses.ts';

/** What the stand-in's PUT /admin/faults answers; only its acceptance matters here. */
const FaultsAnswerSchema = z.looseObject({});
const LeverAnswerSchema = z.looseObject({ armed: z.array(z.string()) });
const SimulatedAnswerSchema = z.looseObject({
  segment: z.looseObject({ tripId: z.string(), segmentId: z.string() }),
});

type FaultPatch = Record<string, boolean | number>;

/** The words of each release note a demo announcement can carry (the app shows the version only). */
const RELEASE_NOTES: Record<DemoReleaseNotes, string> = {
  'faster-search': 'Flight and stay searches show their first results sooner.',
  'offline-trips': 'Your upcoming trips stay readable without a connection.',
  'clearer-alerts': 'Delay alerts say which connection is at risk.',
};

/** The signed-in traveler whose own requests a demo action concerns. */
function travelerId(request: FastifyRequest): string {
  return signedInTraveler(request).travelerId;
}

/** GET /api/demo/status: whether the demo panel is available (open to every browser of the app). */
export async function demoStatusRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const enabled = demoEnabled(app);
  routes.get(
    '/api/demo/status',
    {
      schema: {
        tags: ['demo'],
        summary: 'Whether the demo panel is available',
        response: { 200: DemoStatusSchema },
      },
    },
    async () => ({ enabled }),
  );
}

function demoEnabled(app: FastifyInstance): boolean {
  return app.config.DEMO_MODE && app.config.TRAVEL_API_ADMIN_TOKEN !== undefined;
}

/**
 * The demo actions under /api/demo/* (behind the traveler gate: a guest has no requests of its own), only when
 * DEMO_MODE is on and the travel API stand-in's admin token is configured: a delay on one of the
 * traveler's segments, expired offers, a provider failure and a rate limit for a while, an app update
 * announcement, and the booking levers. Each acts on the signed-in traveler's own requests and on no one
 * else's.
 */
export default async function demoRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const token = app.config.TRAVEL_API_ADMIN_TOKEN;
  if (!demoEnabled(app) || token === undefined) return;

  const admin = createTravelApiAdmin({
    baseUrl: app.config.TRAVEL_API_URL,
    token,
    timeoutMs: app.config.UPSTREAM_TIMEOUT_MS,
  });

  const faultRoute = (action: string, summary: string, patch: (seconds: number) => FaultPatch) =>
    routes.post(
      `/api/demo/${action}`,
      {
        schema: routeSchema(
          'demo',
          summary,
          { body: DemoFaultRequestSchema },
          { 200: DemoActionResultSchema },
        ),
      },
      async (request, reply): Promise<DemoActionResult> => {
        const { seconds } = request.body;
        await admin.call({
          method: 'PUT',
          path: `/admin/travelers/${travelerId(request)}/faults`,
          body: { ...patch(seconds), durationSeconds: seconds },
          schema: FaultsAnswerSchema,
          ...upstreamContext(request, reply),
        });
        return { action, activeUntil: new Date(Date.now() + seconds * 1000).toISOString() };
      },
    );

  faultRoute(
    'expired-offer',
    'The signed-in traveler’s stay offers count as expired for a while (410 OFFER_EXPIRED)',
    () => ({ offersExpired: true }),
  );
  faultRoute(
    'provider-failure',
    'Providers are down for the signed-in traveler for a while (503 SERVICE_UNAVAILABLE)',
    () => ({ providerDown: true }),
  );
  faultRoute(
    'rate-limit',
    'The travel API allows the signed-in traveler two calls per window for a while (429)',
    (seconds) => ({
      rateLimitMax: 2,
      rateLimitWindowSeconds: seconds,
    }),
  );

  const leverRoute = (action: string, lever: string, summary: string) =>
    routes.post(
      `/api/demo/${action}`,
      {
        schema: routeSchema('demo', summary, {}, { 200: DemoActionResultSchema }),
      },
      async (request, reply): Promise<DemoActionResult> => {
        await admin.call({
          method: 'POST',
          path: '/admin/booking-levers',
          body: { travelerId: travelerId(request), lever },
          schema: LeverAnswerSchema,
          ...upstreamContext(request, reply),
        });
        return { action, activeUntil: null };
      },
    );

  leverRoute('price-change', 'price-change', 'The signed-in traveler’s next price check finds a new price');
  leverRoute('payment-decline', 'payment-decline', 'The signed-in traveler’s next payment is declined');
  leverRoute('booking-conflict', 'booking-conflict', 'The signed-in traveler’s next booking conflicts');
  leverRoute(
    'cancel-failure',
    'cancel-failure',
    'The signed-in traveler’s next cancel fails once (503 RETRY_LATER)',
  );
  leverRoute(
    'offer-expiry',
    'offer-expired',
    'The signed-in traveler’s next price check finds the offer expired',
  );

  routes.post(
    '/api/demo/segment-delay',
    {
      schema: routeSchema(
        'demo',
        'Delay one of the signed-in traveler’s segments (a notification follows)',
        { body: DemoSegmentDelayRequestSchema },
        { 200: DemoActionResultSchema },
      ),
    },
    async (request, reply): Promise<DemoActionResult> => {
      const result = await admin.call({
        method: 'POST',
        path: '/admin/simulate',
        body: {
          traveler: travelerId(request),
          type: 'SEGMENT_DELAYED',
          minutes: request.body.minutes,
          segmentId: request.body.segmentId,
          breaksConnection: request.body.breaksConnection,
        },
        schema: SimulatedAnswerSchema,
        ...upstreamContext(request, reply),
      });
      const { tripId, segmentId } = result.segment;
      return { action: 'segment-delay', activeUntil: null, segment: { tripId, segmentId } };
    },
  );

  routes.post(
    '/api/demo/app-update',
    {
      schema: routeSchema(
        'demo',
        'Announce a new version of the app to the signed-in traveler',
        { body: DemoAppUpdateRequestSchema },
        { 200: DemoActionResultSchema },
      ),
    },
    async (request, reply): Promise<DemoActionResult> => {
      const { latestVersion, releaseNotes } = request.body;
      await admin.call({
        method: 'PUT',
        path: `/admin/travelers/${travelerId(request)}/app-release`,
        body: {
          latestVersion,
          releaseNotes: releaseNotes === undefined ? null : RELEASE_NOTES[releaseNotes],
        },
        schema: UpdateCheckSchema,
        ...upstreamContext(request, reply),
      });
      return { action: 'app-update', activeUntil: null };
    },
  );
}
