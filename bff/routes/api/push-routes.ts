import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { signedInTraveler } from '../../sessions/session-plugin.ts';
import { pushSessionRef, PushSubscriptionSchema } from '../../push/push-subscription-store.ts';
import { NoContentSchema, routeSchema } from './error-responses.ts';

const UnsubscribeSchema = z.object({ endpoint: z.url().max(2048) });
const PublicKeySchema = z.object({ publicKey: z.string() });
const SubscribedSchema = z.object({ subscribed: z.literal(true) });
const SessionSubscriptionsSchema = z.object({ endpoints: z.array(z.string()) });
const PushStatsSchema = z.looseObject({
  push: z.record(z.string(), z.number()),
  hub: z.record(z.string(), z.number()),
  sse: z.looseObject({ open: z.number(), slowConsumerCutOffs: z.number() }),
});

/** One refusal for every endpoint the policy refuses, whatever the reason (origin, address, name). */
function notAPushService(): AppError {
  return new AppError('VALIDATION_ERROR', {
    message: 'Some fields need correcting',
    details: [
      {
        field: 'endpoint',
        code: 'push_service',
        message: 'The endpoint must be on a push service of a browser this app supports',
      },
    ],
  });
}

/** GET /api/push/public-key: the VAPID application server key (open to every browser of the app). */
export async function pushPublicKeyRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/push/public-key',
    {
      schema: routeSchema(
        'push',
        'The VAPID key push subscriptions are made with',
        {},
        { 200: PublicKeySchema },
      ),
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return { publicKey: app.push.vapidPublicKey };
    },
  );
}

/**
 * Web Push opt-in, for the signed-in traveler: POST and DELETE /api/push/subscriptions (the browser's
 * PushSubscription, kept per traveler and tied to the session that made it, which removes it when it
 * ends), and GET, the endpoints this session subscribed (what the settings panel shows). A subscription is stored only on a push service the endpoint
 * policy allows, and the answer is the same whether the endpoint was stored before or not, so that
 * subscribing again tells nothing about what happened to it meanwhile. Outside production,
 * GET /api/push/stats shows the push decisions and the hub's counters.
 */
export default async function pushRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const production = app.config.NODE_ENV === 'production';

  routes.post(
    '/api/push/subscriptions',
    {
      schema: routeSchema(
        'push',
        'Subscribe this browser to push alerts',
        { body: PushSubscriptionSchema },
        { 200: SubscribedSchema },
      ),
    },
    async (request, reply) => {
      const { sessionId, travelerId } = signedInTraveler(request);
      const { endpoint, keys } = request.body;
      const verdict = await app.push.endpointPolicy.check(endpoint);
      if (verdict.kind === 'refused') throw notAPushService();
      if (verdict.kind === 'unresolved') {
        throw new AppError('SERVICE_UNAVAILABLE', {
          message: 'The push service could not be reached. Try again shortly.',
          retryAfterSeconds: 5,
        });
      }
      const store = app.push.subscriptions;
      const existing = await store.list(travelerId);
      const isNew = !existing.some((subscription) => subscription.endpoint === endpoint);
      const surplus = existing.length + (isNew ? 1 : 0) - app.config.PUSH_MAX_SUBSCRIPTIONS_PER_TRAVELER;
      for (const oldest of existing.slice(0, Math.max(0, surplus)))
        await store.removeEndpoint(oldest.endpoint);
      await store.save(travelerId, { endpoint, keys, sessionRef: pushSessionRef(sessionId) });
      return reply.code(200).send({ subscribed: true });
    },
  );

  routes.get(
    '/api/push/subscriptions',
    {
      schema: routeSchema(
        'push',
        'The push endpoints this session subscribed (another session sees none of them)',
        {},
        { 200: SessionSubscriptionsSchema },
      ),
    },
    async (request, reply) => {
      const { sessionId, travelerId } = signedInTraveler(request);
      const ref = pushSessionRef(sessionId);
      const stored = await app.push.subscriptions.list(travelerId);
      reply.header('cache-control', 'no-store');
      return {
        endpoints: stored
          .filter((subscription) => subscription.sessionRef === ref)
          .map((subscription) => subscription.endpoint),
      };
    },
  );

  routes.delete(
    '/api/push/subscriptions',
    {
      schema: routeSchema(
        'push',
        'Unsubscribe a browser from push alerts',
        { body: UnsubscribeSchema },
        { 204: NoContentSchema },
      ),
    },
    async (request, reply) => {
      await app.push.subscriptions.remove(signedInTraveler(request).travelerId, request.body.endpoint);
      return reply.code(204).send(null);
    },
  );

  if (!production) {
    routes.get(
      '/api/push/stats',
      {
        schema: routeSchema(
          'push',
          'Push decisions and the hub’s counters (outside production)',
          {},
          { 200: PushStatsSchema },
        ),
      },
      async () => ({
        push: app.push.dispatcher.stats(),
        hub: { ...app.notificationHub.stats() },
        sse: { open: app.sse.size, slowConsumerCutOffs: app.sse.slowConsumerCutOffs },
      }),
    );
  }
}
