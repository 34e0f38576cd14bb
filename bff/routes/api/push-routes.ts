import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { isAcceptablePushEndpoint, PushSubscriptionSchema } from '../../push/push-subscription-store.ts';
import { NoContentSchema, withErrorResponses } from './error-responses.ts';

const UnsubscribeSchema = z.object({ endpoint: z.url().max(2048) });
const PublicKeySchema = z.object({ publicKey: z.string() });
const SubscribedSchema = z.object({ subscribed: z.literal(true) });
const PushStatsSchema = z.looseObject({
  push: z.record(z.string(), z.number()),
  hub: z.record(z.string(), z.number()),
  sse: z.looseObject({ open: z.number(), slowConsumerCutOffs: z.number() }),
});

function travelerOnly(): AppError {
  return new AppError('UNAUTHORIZED', {
    message: 'Push alerts need a signed-in traveler.',
    recoveryAction: 'BLOCKED',
  });
}

/** GET /api/push/public-key: the VAPID application server key (open to every browser of the app). */
export function pushPublicKeyRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/push/public-key',
      { schema: { tags: ['push'], response: withErrorResponses({ 200: PublicKeySchema }) } },
      (_request, reply) => {
        reply.header('cache-control', 'no-cache');
        return Promise.resolve({ publicKey: app.push.vapidPublicKey });
      },
    );
  return Promise.resolve();
}

/**
 * Web Push opt-in, behind the session gate: POST and DELETE /api/push/subscriptions (the browser's
 * PushSubscription, kept per traveler). Outside production, GET /api/push/stats shows the push decisions
 * and the hub's counters.
 */
export default function pushRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const production = app.config.NODE_ENV === 'production';

  routes.post(
    '/api/push/subscriptions',
    {
      schema: {
        tags: ['push'],
        body: PushSubscriptionSchema,
        response: withErrorResponses({ 200: SubscribedSchema, 201: SubscribedSchema }),
      },
    },
    async (request, reply) => {
      const session = request.session;
      if (session?.kind !== 'traveler' || session.travelerId === undefined) throw travelerOnly();
      const { endpoint, keys } = request.body;
      if (!isAcceptablePushEndpoint(endpoint, production)) {
        throw new AppError('VALIDATION_ERROR', {
          message: 'Some fields need correcting',
          details: [{ field: 'endpoint', code: 'url_scheme', message: 'A push endpoint must be https' }],
        });
      }
      const store = app.push.subscriptions;
      const existing = await store.list(session.travelerId);
      const isNew = !existing.some((subscription) => subscription.endpoint === endpoint);
      const surplus = existing.length + (isNew ? 1 : 0) - app.config.PUSH_MAX_SUBSCRIPTIONS_PER_TRAVELER;
      for (const oldest of existing.slice(0, Math.max(0, surplus)))
        await store.removeEndpoint(oldest.endpoint);
      await store.save(session.travelerId, { endpoint, keys });
      return reply.code(isNew ? 201 : 200).send({ subscribed: true });
    },
  );

  routes.delete(
    '/api/push/subscriptions',
    {
      schema: {
        tags: ['push'],
        body: UnsubscribeSchema,
        response: withErrorResponses({ 204: NoContentSchema }),
      },
    },
    async (request, reply) => {
      const session = request.session;
      if (session?.kind !== 'traveler' || session.travelerId === undefined) throw travelerOnly();
      await app.push.subscriptions.remove(session.travelerId, request.body.endpoint);
      return reply.code(204).send(null);
    },
  );

  if (!production) {
    routes.get(
      '/api/push/stats',
      { schema: { tags: ['push'], response: withErrorResponses({ 200: PushStatsSchema }) } },
      () =>
        Promise.resolve({
          push: app.push.dispatcher.stats(),
          hub: { ...app.notificationHub.stats() },
          sse: { open: app.sse.size, slowConsumerCutOffs: app.sse.slowConsumerCutOffs },
        }),
    );
  }
  return Promise.resolve();
}
