import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MISSING_HOST_MESSAGE, refuseWithoutHost } from '#shared/host-header.ts';
import { AppError } from '../errors.ts';

/** An HTTP/1.1 request without a Host header: 400 BAD_REQUEST in the envelope, the connection closed. */
async function hostHeaderPlugin(app: FastifyInstance): Promise<void> {
  app.addHook(
    'onRequest',
    refuseWithoutHost(
      () =>
        new AppError('BAD_REQUEST', {
          status: 400,
          message: MISSING_HOST_MESSAGE,
          recoveryAction: 'FIX_INPUT',
        }),
    ),
  );
}

export const hostHeader = fp(hostHeaderPlugin, { name: 'host-header', fastify: '5.x' });
export default hostHeader;
