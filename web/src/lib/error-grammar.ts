import type { ErrorDetail, RecoveryAction } from '#shared/api/error-envelope.ts';
import { ApiError, isSessionExpired } from './api-error.ts';

export interface FieldProblem {
  /** Dotted path of the field as the server names it, e.g. `passengers.adults`. */
  field: string;
  message: string;
}

/** What a screen shows and does for one failure; every screen renders errors from this. */
export interface ErrorPresentation {
  action: RecoveryAction;
  code: string;
  title: string;
  guidance: string;
  /** The server's own words, shown only as a secondary detail. */
  serverMessage: string;
  retryAfterSeconds: number | null;
  fieldProblems: FieldProblem[];
  requestId: string | undefined;
  sessionExpired: boolean;
}

const TITLES_BY_CODE: Record<string, string> = {
  NETWORK_ERROR: 'We could not reach Wayfare',
  UNEXPECTED_RESPONSE: 'Something went wrong on our side',
  RATE_LIMIT_EXCEEDED: 'Too many requests in a short time',
  SERVICE_UNAVAILABLE: 'The travel service is not answering right now',
  BAD_GATEWAY: 'A travel provider is not answering',
  PROVIDER_ERROR: 'The provider could not price this stay',
  OFFER_EXPIRED: 'Prices changed, choose again',
  MAX_NIGHTS_EXCEEDED: 'This stay is longer than we can price',
  VALIDATION_ERROR: 'Some details need a fix',
  UNPROCESSABLE_ENTITY: 'This request cannot be processed',
  RESOURCE_NOT_FOUND: 'We could not find that',
  BOOKING_CONFLICT: 'This booking changed in the meantime',
  CONSUMER_AUTH_REQUIRED: 'Wayfare could not connect to the travel service',
  UNAUTHORIZED: 'Your session has ended',
  SESSION_EXPIRED: 'Your session has ended',
};

/** Codes whose envelope message names the cause (which provider is down) better than a fixed title. */
const TITLED_BY_SERVER_MESSAGE = new Set(['SERVICE_UNAVAILABLE']);

const firstSentence = (text: string): string => (text.split(/(?<=\.)\s/)[0] ?? '').replace(/\.$/, '').trim();

const TITLES_BY_ACTION: Record<RecoveryAction, string> = {
  RETRY_NOW: 'That did not work',
  RETRY_LATER: 'Please wait a moment',
  CHANGE_PAYMENT: 'The payment method was declined',
  CHANGE_SELECTION: 'That option is no longer available',
  CONTACT_SUPPORT: 'Something needs our support team',
  BLOCKED: 'This action is not allowed',
  FIX_INPUT: 'Some details need a fix',
};

const GUIDANCE_BY_ACTION: Record<RecoveryAction, string> = {
  RETRY_NOW: 'This is usually temporary. Try again.',
  RETRY_LATER: 'We will try again automatically when the wait is over.',
  CHANGE_PAYMENT: 'Choose a different payment method to continue; everything else is kept.',
  CHANGE_SELECTION: 'Go back to the choices and pick another option.',
  CONTACT_SUPPORT: 'This cannot be fixed from here. Contact support and quote the reference below.',
  BLOCKED: 'Your account cannot do this. Nothing was changed.',
  FIX_INPUT: 'Correct the highlighted fields and submit again.',
};

const SESSION_GUIDANCE = 'Sign in again to continue where you left off.';

/** Field messages keyed by the validation rule the server names (details[].code). */
const RULE_MESSAGES: Record<string, string> = {
  required: 'This field is required.',
  invalid_type: 'This value is not valid.',
  invalid_format: 'This value is not in the expected format.',
  invalid_string: 'This value is not in the expected format.',
  invalid_value: 'Choose one of the offered values.',
  invalid_enum_value: 'Choose one of the offered values.',
  too_small: 'This value is too small.',
  too_big: 'This value is too large.',
  greater_than: 'This value is too small.',
  greater_than_equal: 'This value is too small.',
  less_than: 'This value is too large.',
  less_than_equal: 'This value is too large.',
  date_in_past: 'Choose a date that is not in the past.',
  past_date: 'Choose a date that is not in the past.',
};

export function presentError(error: unknown): ErrorPresentation {
  const apiError = error instanceof ApiError ? error : undefined;
  const body = apiError?.body ?? {
    code: 'UNEXPECTED_ERROR',
    message: error instanceof Error ? error.message : 'Unexpected error',
    details: [],
    recoveryAction: 'RETRY_NOW' as const,
    retryAfterSeconds: null,
  };
  const sessionExpired = isSessionExpired(error);
  const action = body.recoveryAction;
  const serverTitle = TITLED_BY_SERVER_MESSAGE.has(body.code) ? firstSentence(body.message) : '';
  return {
    action,
    code: body.code,
    title: serverTitle || (TITLES_BY_CODE[body.code] ?? TITLES_BY_ACTION[action]),
    guidance: sessionExpired ? SESSION_GUIDANCE : GUIDANCE_BY_ACTION[action],
    serverMessage: serverTitle ? '' : body.message,
    retryAfterSeconds: action === 'RETRY_LATER' ? Math.max(1, Math.ceil(body.retryAfterSeconds ?? 5)) : null,
    fieldProblems: action === 'FIX_INPUT' ? body.details.map(toFieldProblem) : [],
    requestId: apiError?.requestId,
    sessionExpired,
  };
}

function toFieldProblem(detail: ErrorDetail): FieldProblem {
  return { field: detail.field, message: RULE_MESSAGES[detail.code] ?? detail.message };
}

/** Field problems keyed by dotted path, for forms that show each at its field. */
export function fieldProblemsByPath(error: unknown): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const problem of presentError(error).fieldProblems) problems[problem.field] ??= problem.message;
  return problems;
}

/** Reads retry once on their own when the envelope says RETRY_NOW; nothing else retries silently. */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  return error instanceof ApiError && error.recoveryAction === 'RETRY_NOW' && !isSessionExpired(error);
}

/** The DOM id of a form control for a server field path, shared by forms and error summaries. */
export function fieldId(path: string): string {
  return `field-${path.replace(/[^a-zA-Z0-9_-]+/g, '-')}`;
}
