import type { ErrorBody, ErrorDetail, RecoveryAction } from '#shared/api/error-envelope.ts';
import { RECOVERY_ACTIONS } from '#shared/api/recovery-actions.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isDetail = (value: unknown): value is ErrorDetail =>
  isRecord(value) &&
  typeof value.field === 'string' &&
  typeof value.code === 'string' &&
  typeof value.message === 'string';

const isRecoveryAction = (value: unknown): value is RecoveryAction =>
  (RECOVERY_ACTIONS as readonly unknown[]).includes(value);

/**
 * The error object of the spec's envelope (`{ error: {...} }`'s inner object), or undefined when `value`
 * is not one: what a proxy's page, an empty body or an older shape gives. The fields the app reads are
 * checked one by one; any other field is kept, as the envelope may grow within /v1.
 */
export function readErrorBody(value: unknown): ErrorBody | undefined {
  if (!isRecord(value)) return undefined;
  const { code, message, details, recoveryAction, retryAfterSeconds, reason } = value;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  if (!Array.isArray(details) || !details.every(isDetail)) return undefined;
  if (!isRecoveryAction(recoveryAction)) return undefined;
  if (retryAfterSeconds !== null && typeof retryAfterSeconds !== 'number') return undefined;
  if (reason !== undefined && !(isRecord(reason) && typeof reason.code === 'string')) return undefined;
  return value as ErrorBody;
}

/** The error object of a whole envelope, `{ error: {...} }`; undefined when `value` is not one. */
export const readErrorEnvelope = (value: unknown): ErrorBody | undefined =>
  isRecord(value) ? readErrorBody(value.error) : undefined;
