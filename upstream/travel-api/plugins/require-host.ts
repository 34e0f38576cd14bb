import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MISSING_HOST_MESSAGE, refuseWithoutHost } from '#shared/host-header.ts';
import { ServiceError } from '../service-error.ts';

/**
 * An HTTP/1.1 request without a Host header, before signatures or tokens are read: 400 VALIDATION_ERROR
 * naming the header, the connection closed.
 */
function requireHost(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.addHook(
    'onRequest',
    refuseWithoutHost(
      () =>
        new ServiceError('VALIDATION_ERROR', {
          status: 400,
          message: MISSING_HOST_MESSAGE,
          details: [{ field: 'host', code: 'missing', message: MISSING_HOST_MESSAGE }],
        }),
    ),
  );
  done();
}

export default fp(requireHost, { name: 'require-host', dependencies: ['service-error-handler'] });
