import { z } from 'zod';
import { RECOVERY_ACTIONS } from './recovery-actions.ts';

export { RECOVERY_ACTIONS };
export const RecoveryActionSchema = z.enum(RECOVERY_ACTIONS);
export type RecoveryAction = z.infer<typeof RecoveryActionSchema>;

/** Codes named by the spec, with the status and recovery action this project uses for each. */
export const ERROR_CODES = {
  CONSUMER_AUTH_REQUIRED: { status: 401, recoveryAction: 'CONTACT_SUPPORT' },
  UNAUTHORIZED: { status: 401, recoveryAction: 'BLOCKED' },
  SERVICE_UNAVAILABLE: { status: 503, recoveryAction: 'RETRY_LATER' },
  VALIDATION_ERROR: { status: 422, recoveryAction: 'FIX_INPUT' },
  UNPROCESSABLE_ENTITY: { status: 422, recoveryAction: 'FIX_INPUT' },
  OFFER_EXPIRED: { status: 410, recoveryAction: 'CHANGE_SELECTION' },
  MAX_NIGHTS_EXCEEDED: { status: 422, recoveryAction: 'FIX_INPUT' },
  PROVIDER_ERROR: { status: 502, recoveryAction: 'RETRY_LATER' },
  RESOURCE_NOT_FOUND: { status: 404, recoveryAction: 'CHANGE_SELECTION' },
  RATE_LIMIT_EXCEEDED: { status: 429, recoveryAction: 'RETRY_LATER' },
  BAD_GATEWAY: { status: 502, recoveryAction: 'RETRY_LATER' },
  BOOKING_CONFLICT: { status: 409, recoveryAction: 'CHANGE_SELECTION' },
} as const satisfies Record<string, { status: number; recoveryAction: RecoveryAction }>;
export type KnownErrorCode = keyof typeof ERROR_CODES;

export const ErrorDetailSchema = z.looseObject({
  field: z.string(),
  code: z.string(),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;

/**
 * Why a non-validation error happened, in fields a client can act on or tell in its own words (the
 * booking a new one clashes with, the card that was declined): `code` names the reason, the rest depends
 * on it. An additive field of the error object (Versioning rule 3: new response fields can appear within
 * /v1 and clients must tolerate them), so `details` keeps the spec's meaning, "Field-level errors; empty
 * array for non-validation errors", and a client that knows only the spec's envelope ignores it.
 */
export const ErrorReasonSchema = z.looseObject({ code: z.string() });
export type ErrorReason = z.infer<typeof ErrorReasonSchema>;

/**
 * The error envelope. `code` stays an open string: /v1 may add codes, and clients branch on the ones
 * they know. recoveryAction is one of the seven the spec lists.
 */
export const ErrorEnvelopeSchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.array(ErrorDetailSchema),
    recoveryAction: RecoveryActionSchema,
    retryAfterSeconds: z.number().nullable(),
    reason: ErrorReasonSchema.optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
export type ErrorBody = ErrorEnvelope['error'];

export interface ErrorEnvelopeInit {
  message: string;
  details?: ErrorDetail[];
  recoveryAction?: RecoveryAction;
  retryAfterSeconds?: number | null;
  /** Only on errors that are not validation errors, whose `details` stay empty. */
  reason?: ErrorReason | undefined;
}

/** Builds an envelope for a known code, with the project's default recovery action for it. */
export function errorEnvelope(code: KnownErrorCode | (string & {}), init: ErrorEnvelopeInit): ErrorEnvelope {
  const known = (ERROR_CODES as Record<string, { recoveryAction: RecoveryAction } | undefined>)[code];
  return {
    error: {
      code,
      message: init.message,
      details: init.details ?? [],
      recoveryAction: init.recoveryAction ?? known?.recoveryAction ?? 'CONTACT_SUPPORT',
      retryAfterSeconds: init.retryAfterSeconds ?? null,
      ...(init.reason ? { reason: init.reason } : {}),
    },
  };
}

/** The exact 401 the spec prescribes for any consumer-signature failure. */
export const CONSUMER_AUTH_REQUIRED_ENVELOPE: ErrorEnvelope = errorEnvelope('CONSUMER_AUTH_REQUIRED', {
  message: 'Consumer authentication required',
  recoveryAction: 'CONTACT_SUPPORT',
  retryAfterSeconds: null,
});
