import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Socket } from 'node:net';
import { clientErrorResponse, clientErrorStatus } from '#shared/client-error-response.ts';
import { CONSUMER_AUTH_REQUIRED_ENVELOPE } from '#shared/upstream/error-envelope.ts';
import { ServiceError } from '../service-error.ts';
import { RequestValidationError } from '../request-validation.ts';

/** Every non-2xx answer is the spec's envelope; 5xx never carry internals, and none carries a stack. */
function serviceErrorHandler(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const serviceError = toServiceError(error);
    if (serviceError.statusCode >= 500 && serviceError.code !== 'SERVICE_UNAVAILABLE') {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ code: serviceError.code, status: serviceError.statusCode }, 'request rejected');
    }
    return sendServiceError(reply, serviceError);
  });

  // Once the server closes, nothing new starts: a request that arrives, or that reaches its handler, after
  // closing began gets 503 RETRY_LATER in the envelope (not Fastify's own 503 body).
  let closing = false;
  app.decorate('shuttingDown', { getter: () => closing });
  app.addHook('preClose', (hookDone) => {
    closing = true;
    hookDone();
  });
  const refuseWhileClosing = (
    _request: FastifyRequest,
    _reply: FastifyReply,
    next: (error?: Error) => void,
  ) => next(closing ? shuttingDownError() : undefined);
  app.addHook('onRequest', refuseWhileClosing);
  app.addHook('preHandler', refuseWhileClosing);

  app.setNotFoundHandler((_request, reply) =>
    sendServiceError(reply, new ServiceError('RESOURCE_NOT_FOUND', { message: 'Resource not found' })),
  );
  done();
}

/** The answer to a request the server will not start because it is closing. */
export function shuttingDownError(): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', {
    message: 'The service is shutting down',
    recoveryAction: 'RETRY_LATER',
    retryAfterSeconds: 1,
  });
}

export function sendServiceError(reply: FastifyReply, error: ServiceError): FastifyReply {
  const retryAfter = error.envelope.error.retryAfterSeconds;
  if (retryAfter !== null) reply.header('retry-after', String(Math.max(0, Math.ceil(retryAfter))));
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(error.envelope);
}

/** Fastify's own errors (routing, content types, URL parsing) answered as envelopes. */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  sendServiceError(reply, toServiceError(error));
}

function toServiceError(error: FastifyError): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof RequestValidationError) {
    return new ServiceError('VALIDATION_ERROR', {
      message: 'The request failed validation',
      details: error.details,
    });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ServiceError.fromEnvelope(401, CONSUMER_AUTH_REQUIRED_ENVELOPE);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalidRequest('content-type', 'content_type', 'Content-Type must be application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalidRequest('body', 'missing', 'A JSON body is required');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidRequest('body', 'json_invalid', 'The body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidRequest('content-length', 'content_length', 'Content-Length does not match the body');
    case 'FST_ERR_BAD_URL':
      return invalidRequest('url', 'url_parsing', 'The request URL is malformed');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return invalidRequest('url', 'string_too_long', 'A path segment is longer than the service accepts');
  }
  if (error instanceof SyntaxError)
    return invalidRequest('body', 'json_invalid', 'The body is not valid JSON');
  const status = error.statusCode ?? 500;
  if (status === 404 || status === 405) {
    return new ServiceError('RESOURCE_NOT_FOUND', { message: 'Resource not found' });
  }
  if (status >= 400 && status < 500) {
    return invalidRequest('request', 'invalid_request', 'The request could not be processed');
  }
  return new ServiceError('INTERNAL_ERROR', {
    status: 500,
    message: 'The service failed to process the request',
    recoveryAction: 'CONTACT_SUPPORT',
  });
}

/**
 * What the HTTP parser rejects before Fastify sees a request (headers too large, a malformed request line)
 * is answered with the envelope on the raw socket, then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, reason, code } = clientErrorStatus(error.code);
  const rejected = new ServiceError(code, {
    status,
    message: status === 431 ? 'The request line and headers are too large' : 'The request could not be read',
    recoveryAction: 'FIX_INPUT',
  });
  socket.end(clientErrorResponse(status, reason, rejected.envelope));
}

function invalidRequest(field: string, code: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', {
    message: 'The request failed validation',
    details: [{ field, code, message }],
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** True from the moment the server begins closing. */
    readonly shuttingDown: boolean;
  }
}

export default fp(serviceErrorHandler, { name: 'service-error-handler' });
