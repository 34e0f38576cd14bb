import {
  ERROR_CODES,
  errorEnvelope,
  type ErrorEnvelope,
  type ErrorEnvelopeInit,
  type KnownErrorCode,
} from '#shared/upstream/error-envelope.ts';

export interface ServiceErrorInit extends ErrorEnvelopeInit {
  status?: number;
  cause?: unknown;
}

/** The one error type of the travel API: the error handler writes its envelope with its status. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly statusCode: number;
  readonly envelope: ErrorEnvelope;

  constructor(code: KnownErrorCode | (string & {}), init: ServiceErrorInit) {
    super(init.message, { cause: init.cause });
    const known = (ERROR_CODES as Record<string, { status: number } | undefined>)[code];
    this.statusCode = init.status ?? known?.status ?? 500;
    this.envelope = errorEnvelope(code, init);
  }

  get code(): string {
    return this.envelope.error.code;
  }

  static fromEnvelope(status: number, envelope: ErrorEnvelope): ServiceError {
    const { code, ...init } = envelope.error;
    return new ServiceError(code, { ...init, status });
  }
}
