import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONSUMER_AUTH_REQUIRED_ENVELOPE } from '#shared/upstream/error-envelope.ts';
import { PUSH_WEBHOOK_CONSUMER, PushWebhookPayloadSchema } from '#shared/upstream/notifications.ts';
import { verifySignature } from '#shared/upstream/verify-signature.ts';
import { AppError } from '../../errors.ts';
import { PUSH_OUTCOMES } from '../../push/push-decision.ts';
import { routeSchema } from '../api/error-responses.ts';

export const PUSH_WEBHOOK_PATH = '/webhooks/travel-api/push';

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const PushWebhookAnswerSchema = z.object({ outcome: z.enum(PUSH_OUTCOMES) });

/**
 * POST /webhooks/travel-api/push: the travel API's push channel. The signature is checked over the raw
 * body bytes with the push webhook secret before anything reads them; then the body is the push event
 * (validated like any route's), the push decision runs once per notification id, and the answer tells
 * the travel API whether to retry (503) or not (200, any outcome).
 */
export default async function travelApiPushWebhook(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) => {
    done(null, body);
  });
  const secrets = { current: app.config.PUSH_WEBHOOK_SECRET };

  /** preValidation: a signed body becomes the JSON it holds; an unsigned one is refused with 401. */
  const signedBody = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const consumer = header(request.headers['service-consumer']);
    const verified = verifySignature({
      headers: {
        consumer,
        timestamp: header(request.headers['service-timestamp']),
        signature: header(request.headers['service-signature']),
      },
      method: request.method,
      path: request.url,
      body,
      secrets: consumer === PUSH_WEBHOOK_CONSUMER ? secrets : undefined,
    });
    if (!verified.ok) {
      request.log.warn('push webhook refused: bad signature');
      return reply.code(401).header('cache-control', 'no-store').send(CONSUMER_AUTH_REQUIRED_ENVELOPE);
    }
    request.body = parseJson(body);
    return undefined;
  };

  app.withTypeProvider<ZodTypeProvider>().post(
    PUSH_WEBHOOK_PATH,
    {
      preValidation: signedBody,
      schema: routeSchema(
        'push',
        'A notification.push event of the travel API, signed with the push webhook secret',
        { body: PushWebhookPayloadSchema },
        { 200: PushWebhookAnswerSchema },
      ),
    },
    async (request, reply) => {
      const { travelerId, notification } = request.body;
      const outcome = await app.push.dispatcher.dispatch(travelerId, notification);
      if (outcome === 'failed') {
        throw new AppError('SERVICE_UNAVAILABLE', {
          message: 'The push service did not accept the message; retry later.',
          retryAfterSeconds: 5,
        });
      }
      if (outcome === 'deciding') {
        throw new AppError('SERVICE_UNAVAILABLE', {
          message: 'This notification’s push is being decided by an earlier attempt; retry later.',
          retryAfterSeconds: 5,
        });
      }
      return reply.code(200).send({ outcome });
    },
  );
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
