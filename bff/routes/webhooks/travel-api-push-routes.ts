import type { FastifyInstance } from 'fastify';
import { CONSUMER_AUTH_REQUIRED_ENVELOPE } from '#shared/upstream/error-envelope.ts';
import { PUSH_WEBHOOK_CONSUMER, PushWebhookPayloadSchema } from '#shared/upstream/notifications.ts';
import { verifySignature } from '#shared/upstream/verify-signature.ts';
import { AppError } from '../../errors.ts';

export const PUSH_WEBHOOK_PATH = '/webhooks/travel-api/push';

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * POST /webhooks/travel-api/push: the travel API's push channel. The signature is checked over the raw
 * body bytes with the push webhook secret; then the push decision runs once per notification id, and
 * the answer tells the travel API whether to retry (503) or not (200, any outcome).
 */
export default function travelApiPushWebhook(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) => {
    done(null, body);
  });
  const secrets = { current: app.config.PUSH_WEBHOOK_SECRET };

  app.post(PUSH_WEBHOOK_PATH, async (request, reply) => {
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

    const payload = PushWebhookPayloadSchema.safeParse(parseJson(body));
    if (!payload.success) {
      throw new AppError('VALIDATION_ERROR', {
        message: 'The push payload is not a notification.push event',
        details: payload.error.issues.map((issue) => ({
          field: issue.path.join('.') || 'body',
          code: issue.code,
          message: issue.message,
        })),
      });
    }
    const { travelerId, notification } = payload.data;
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
  });
  return Promise.resolve();
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
