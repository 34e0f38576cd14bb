import type { ErrorBody, RecoveryAction } from '#shared/api/error-envelope.ts';

export interface BffErrorInit {
  status: number;
  body: ErrorBody;
  requestId?: string | undefined;
  /** The trace the app started for the call (trace-context.ts). */
  traceId?: string | undefined;
}

/**
 * Every failure the app sees from the BFF, as the spec's error envelope plus the HTTP status and the
 * request id the BFF sent (X-Request-Id), so support can find the request.
 */
export class BffError extends Error {
  override name = 'BffError';
  readonly status: number;
  readonly body: ErrorBody;
  readonly requestId: string | undefined;
  readonly traceId: string | undefined;

  constructor({ status, body, requestId, traceId }: BffErrorInit) {
    super(body.message);
    this.status = status;
    this.body = body;
    this.requestId = requestId;
    this.traceId = traceId;
  }

  get code(): string {
    return this.body.code;
  }

  get recoveryAction(): RecoveryAction {
    return this.body.recoveryAction;
  }
}

/** The 401 codes that mean "the traveler's session is gone", as opposed to a configuration fault. */
const SESSION_ENDED_CODES = new Set(['UNAUTHORIZED', 'SESSION_EXPIRED', 'SESSION_REQUIRED']);

export function isSessionExpired(error: unknown): boolean {
  return error instanceof BffError && error.status === 401 && SESSION_ENDED_CODES.has(error.code);
}

/** A failure that never reached the BFF or came back unreadable, in the same envelope shape. */
export function networkError(cause: unknown, traceId?: string): BffError {
  const error = new BffError({
    traceId,
    status: 0,
    body: {
      code: 'NETWORK_ERROR',
      message: cause instanceof Error ? cause.message : 'The network request failed',
      details: [],
      recoveryAction: 'RETRY_NOW',
      retryAfterSeconds: null,
    },
  });
  error.cause = cause;
  return error;
}

export function unreadableResponse(
  status: number,
  requestId: string | undefined,
  traceId?: string,
): BffError {
  return new BffError({
    status,
    requestId,
    traceId,
    body: {
      code: 'UNEXPECTED_RESPONSE',
      message: `The server answered with an unexpected response (HTTP ${status})`,
      details: [],
      recoveryAction: status >= 500 ? 'RETRY_NOW' : 'CONTACT_SUPPORT',
      retryAfterSeconds: null,
    },
  });
}
