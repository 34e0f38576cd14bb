import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import fp from 'fastify-plugin';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import type { Socket } from 'node:net';
import { clientErrorResponse, clientErrorStatus } from '#shared/client-error-response.ts';
import type { ErrorDetail } from '#shared/upstream/error-envelope.ts';
import { AppError } from '../errors.ts';
import { isRedisUnavailableError, redisUnavailableError } from '../redis/redis-client.ts';

/**
 * Every error the BFF answers is the spec's envelope: AppErrors as they are, route-schema validation
 * as 422 VALIDATION_ERROR with one detail per field, Fastify's own request errors with a code of ours,
 * and anything unexpected as a 500 that says nothing about its cause (the log has it).
 */
async function errorHandlerPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    else if (appError.status >= 500) {
      // The travel API or Redis failing (or a fault a demo injected): a warning, no stack of ours to read.
      request.log.warn({ code: appError.code, status: appError.status }, 'request failed upstream');
    } else request.log.info({ code: appError.code, status: appError.status }, 'request rejected');
    return sendAppError(reply, appError);
  });

  app.setNotFoundHandler((_request, reply) => sendAppError(reply, routeNotFound()));
}

export const errorHandler = fp(errorHandlerPlugin, { name: 'error-handler', fastify: '5.x' });
export default errorHandler;

/** Fastify's own routing errors (a malformed URL, a path parameter over the length limit) as envelopes. */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void sendAppError(reply, toAppError(error));
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
  const rejected = new AppError(code, {
    status,
    message:
      status === 431 ? 'The request line and headers are too large' : 'The request cannot be processed',
    recoveryAction: 'FIX_INPUT',
  });
  socket.end(clientErrorResponse(status, reason, rejected.envelope));
}

/** Writes an AppError's envelope, with Retry-After when the envelope says how long to wait. */
export function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  const { retryAfterSeconds } = error.envelope.error;
  if (retryAfterSeconds !== null) reply.header('retry-after', String(Math.ceil(retryAfterSeconds)));
  return reply
    .code(error.status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(error.envelope);
}

export function routeNotFound(): AppError {
  return new AppError('RESOURCE_NOT_FOUND', {
    status: 404,
    message: 'There is nothing at this address.',
    recoveryAction: 'CHANGE_SELECTION',
  });
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isRedisUnavailableError(error)) return redisUnavailableError(error);
  if (!isFastifyError(error)) return internalError();

  if (error.validation) return validationError(error.validation, error.validationContext);
  if (isResponseSerializationError(error)) return internalError();

  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return validationError([], 'body', 'malformed_json', 'The request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return validationError([], 'body', 'content_type', 'The request body must be application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', {
        status: 413,
        message: 'The request body is too large',
        recoveryAction: 'FIX_INPUT',
      });
  }

  const status = error.statusCode ?? 500;
  if (status === 404) return routeNotFound();
  if (status >= 400 && status < 500) {
    return new AppError('BAD_REQUEST', {
      status,
      message: 'The request cannot be processed',
      recoveryAction: 'FIX_INPUT',
    });
  }
  return internalError();
}

function internalError(): AppError {
  return new AppError('INTERNAL_ERROR', {
    status: 500,
    message: 'Something went wrong on our side. Please try again later.',
    recoveryAction: 'CONTACT_SUPPORT',
  });
}

function validationError(
  issues: readonly FastifySchemaValidationError[],
  part: string | undefined,
  fallbackRule = 'value_error',
  fallbackMessage = 'Invalid request',
): AppError {
  const details = issuesToDetails(issues, part ?? 'body');
  if (details.length === 0)
    details.push({ field: part ?? 'body', code: fallbackRule, message: fallbackMessage });
  return new AppError('VALIDATION_ERROR', {
    status: 422,
    message: 'Some fields need correcting',
    recoveryAction: 'FIX_INPUT',
    details,
  });
}

interface ZodIssueParams {
  origin?: string;
  inclusive?: boolean;
  expected?: string;
  format?: string;
  values?: unknown[];
  keys?: string[];
  params?: { rule?: unknown };
}

/**
 * The zod type provider reports each zod issue as { keyword: issue code, instancePath: /a/0/b,
 * params: the rest of the issue }. One detail per field, with a dotted path (`passengers.adults`) and a
 * rule name in the vocabulary the travel API uses (`greater_than_equal`, `missing`, ...).
 */
export function issuesToDetails(
  issues: readonly FastifySchemaValidationError[],
  part: string,
): ErrorDetail[] {
  const details = new Map<string, ErrorDetail>();
  const add = (field: string, code: string, message: string) => {
    if (!details.has(field)) details.set(field, { field, code, message });
  };
  for (const issue of issues) {
    const params = issue.params as ZodIssueParams;
    const path = issue.instancePath.split('/').filter((segment) => segment !== '');
    if (issue.keyword === 'unrecognized_keys' && params.keys) {
      for (const key of params.keys) add([...path, key].join('.'), 'extra_forbidden', 'Unknown field');
      continue;
    }
    add(
      path.length === 0 ? part : path.join('.'),
      ruleOf(issue.keyword, params, issue.message ?? ''),
      issue.message ?? 'Invalid value',
    );
  }
  return [...details.values()];
}

function ruleOf(keyword: string, params: ZodIssueParams, message: string): string {
  switch (keyword) {
    case 'invalid_type':
      return /received undefined$/.test(message) ? 'missing' : `${params.expected ?? 'value'}_type`;
    case 'too_small':
      if (params.origin === 'string') return 'string_too_short';
      if (params.origin === 'array' || params.origin === 'set') return 'too_short';
      return params.inclusive ? 'greater_than_equal' : 'greater_than';
    case 'too_big':
      if (params.origin === 'string') return 'string_too_long';
      if (params.origin === 'array' || params.origin === 'set') return 'too_long';
      return params.inclusive ? 'less_than_equal' : 'less_than';
    case 'invalid_format':
      return params.format === 'regex' ? 'string_pattern_mismatch' : `${params.format ?? 'format'}_parsing`;
    case 'invalid_value':
      return params.values?.length === 1 ? 'literal_error' : 'enum';
    case 'not_multiple_of':
      return 'multiple_of';
    case 'custom':
      return typeof params.params?.rule === 'string' ? params.params.rule : 'value_error';
    default:
      return 'value_error';
  }
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && ('code' in error || 'statusCode' in error || 'validation' in error);
}
