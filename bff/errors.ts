import {
  ERROR_CODES,
  errorEnvelope,
  type ErrorEnvelope,
  type ErrorEnvelopeInit,
  type KnownErrorCode,
} from '#shared/upstream/error-envelope.ts';

export interface AppErrorInit extends ErrorEnvelopeInit {
  status?: number;
  cause?: unknown;
}

/**
 * The one error type of the BFF. Everything that fails (upstream, validation, session, our own checks)
 * becomes an AppError, and the error handler writes its envelope.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly envelope: ErrorEnvelope;

  constructor(code: KnownErrorCode | (string & {}), init: AppErrorInit) {
    super(init.message, { cause: init.cause });
    const known = (ERROR_CODES as Record<string, { status: number } | undefined>)[code];
    this.status = init.status ?? known?.status ?? 500;
    this.envelope = errorEnvelope(code, init);
  }

  get code(): string {
    return this.envelope.error.code;
  }

  static fromEnvelope(status: number, envelope: ErrorEnvelope, cause?: unknown): AppError {
    const { code, ...rest } = envelope.error;
    return new AppError(code, { ...rest, status, cause });
  }
}
