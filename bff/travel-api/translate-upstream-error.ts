import type { z } from 'zod';
import { AppError } from '../errors.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';

/** Everything that can go wrong on one call to the travel API, before it becomes an AppError. */
export type UpstreamFailure =
  | { kind: 'response'; status: number; body: string; retryAfterHeader?: string | undefined }
  | { kind: 'network'; cause: unknown }
  | { kind: 'timeout'; timeoutMs: number; cause?: unknown }
  | { kind: 'aborted'; cause?: unknown }
  | { kind: 'contract'; issues: readonly z.core.$ZodIssue[]; cause?: unknown }
  | { kind: 'consumer-rejected'; body: string };

/**
 * The one place where a failed travel-API call becomes the error the browser sees. Upstream envelopes
 * pass through with their status; everything else (transport, timeout, a body outside the contract,
 * a non-envelope error page) becomes an envelope of the BFF's own.
 */
export function translateUpstreamError(failure: UpstreamFailure): AppError {
  switch (failure.kind) {
    case 'response':
      return fromUpstreamResponse(failure.status, failure.body, failure.retryAfterHeader);
    case 'consumer-rejected':
      return new AppError('CONSUMER_AUTH_REQUIRED', {
        status: 502,
        message: 'The travel service did not accept this app’s credentials. Please contact support.',
        recoveryAction: 'CONTACT_SUPPORT',
        cause: failure.body,
      });
    case 'network':
      return new AppError('BAD_GATEWAY', {
        status: 502,
        message: 'The travel service could not be reached. Please try again shortly.',
        recoveryAction: 'RETRY_LATER',
        cause: failure.cause,
      });
    case 'timeout':
      return new AppError('GATEWAY_TIMEOUT', {
        status: 504,
        message: 'The travel service took too long to answer. Please try again.',
        recoveryAction: 'RETRY_LATER',
        cause: failure.cause,
      });
    case 'aborted':
      return new AppError('REQUEST_ABORTED', {
        status: 499,
        message: 'The request was cancelled before the travel service answered.',
        recoveryAction: 'RETRY_NOW',
        cause: failure.cause,
      });
    case 'contract':
      return new AppError('BAD_GATEWAY', {
        status: 502,
        message: 'The travel service sent an answer this app cannot read. Please try again later.',
        recoveryAction: 'RETRY_LATER',
        cause: failure.issues,
      });
  }
}

function fromUpstreamResponse(status: number, body: string, retryAfterHeader?: string): AppError {
  const envelope = ErrorEnvelopeSchema.safeParse(parseJson(body));
  if (envelope.success) {
    const retryAfterSeconds = envelope.data.error.retryAfterSeconds ?? parseRetryAfter(retryAfterHeader);
    const data = { ...envelope.data, error: { ...envelope.data.error, retryAfterSeconds } };
    return AppError.fromEnvelope(status, data);
  }
  if (status === 503 || status === 429) {
    return new AppError(status === 503 ? 'SERVICE_UNAVAILABLE' : 'RATE_LIMIT_EXCEEDED', {
      status,
      message:
        status === 503
          ? 'The travel service is unavailable at the moment. Please try again shortly.'
          : 'Too many requests to the travel service. Please wait a moment.',
      recoveryAction: 'RETRY_LATER',
      retryAfterSeconds: parseRetryAfter(retryAfterHeader),
    });
  }
  return new AppError('BAD_GATEWAY', {
    status: 502,
    message: 'The travel service answered with an unexpected error. Please try again later.',
    recoveryAction: 'RETRY_LATER',
    cause: `upstream status ${status}`,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Retry-After in delta-seconds or HTTP-date form; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
