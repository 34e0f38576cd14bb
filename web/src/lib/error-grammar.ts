import type { ErrorDetail, RecoveryAction } from '#shared/api/error-envelope.ts';
import { BffError, isSessionExpired } from './bff-error.ts';
import { i18n, type MessageId } from '../i18n/i18n.ts';
import type { Translate } from '../i18n/use-t.ts';
import { traceReference } from './trace-context.ts';

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
  /** The server's own words, a secondary detail; empty when the interface speaks another language. */
  serverMessage: string;
  retryAfterSeconds: number | null;
  fieldProblems: FieldProblem[];
  /**
   * What support asks for: a short reference derived from the call's trace id (it finds the call's log
   * lines and its trace), or the BFF's request id for a call made without one.
   */
  reference: string | undefined;
  sessionExpired: boolean;
}

/** A title per code where the code says more than the recovery action (one message per code). */
const TITLES_BY_CODE: Record<string, MessageId> = {
  NETWORK_ERROR: 'notices.code.NETWORK_ERROR',
  UNEXPECTED_RESPONSE: 'notices.code.UNEXPECTED_RESPONSE',
  RATE_LIMIT_EXCEEDED: 'notices.code.RATE_LIMIT_EXCEEDED',
  SERVICE_UNAVAILABLE: 'notices.code.SERVICE_UNAVAILABLE',
  BAD_GATEWAY: 'notices.code.BAD_GATEWAY',
  PROVIDER_ERROR: 'notices.code.PROVIDER_ERROR',
  OFFER_EXPIRED: 'notices.code.OFFER_EXPIRED',
  MAX_NIGHTS_EXCEEDED: 'notices.code.MAX_NIGHTS_EXCEEDED',
  VALIDATION_ERROR: 'notices.code.VALIDATION_ERROR',
  UNPROCESSABLE_ENTITY: 'notices.code.UNPROCESSABLE_ENTITY',
  RESOURCE_NOT_FOUND: 'notices.code.RESOURCE_NOT_FOUND',
  BOOKING_CONFLICT: 'notices.code.BOOKING_CONFLICT',
  CONSUMER_AUTH_REQUIRED: 'notices.code.CONSUMER_AUTH_REQUIRED',
  UNAUTHORIZED: 'notices.code.SESSION_ENDED',
  SESSION_EXPIRED: 'notices.code.SESSION_ENDED',
};

/** Codes whose envelope message names the cause (which provider is down) better than a fixed title. */
const TITLED_BY_SERVER_MESSAGE = new Set(['SERVICE_UNAVAILABLE']);

/**
 * The language the BFF and the travel API write their messages in. Their words are shown only to a
 * traveler reading the interface in it; in another language the interface's own title and guidance say
 * the same, so no sentence of another language is left on the screen.
 */
const SERVER_LANGUAGE = 'en';

const firstSentence = (text: string): string => (text.split(/(?<=\.)\s/)[0] ?? '').replace(/\.$/, '').trim();

/** Field messages keyed by the validation rule the server names (details[].code). */
const RULE_MESSAGES: Record<string, MessageId> = {
  required: 'notices.rule.required',
  invalid_type: 'notices.rule.invalid',
  invalid_format: 'notices.rule.format',
  invalid_string: 'notices.rule.format',
  invalid_value: 'notices.rule.choice',
  invalid_enum_value: 'notices.rule.choice',
  too_small: 'notices.rule.tooSmall',
  too_big: 'notices.rule.tooLarge',
  greater_than: 'notices.rule.tooSmall',
  greater_than_equal: 'notices.rule.tooSmall',
  less_than: 'notices.rule.tooLarge',
  less_than_equal: 'notices.rule.tooLarge',
  date_in_past: 'notices.rule.past',
  past_date: 'notices.rule.past',
  control_characters: 'notices.rule.controlCharacters',
};

/** The active language's messages: what a component gets from useT(), for callers that pass no `t`. */
const activeLanguage: Translate = (id, values) => i18n._(id, values);

const speaksServerLanguage = () => i18n.locale === SERVER_LANGUAGE;

/**
 * The words and the recovery of one failure, in the active language (or through the `t` a component
 * got from useT, which re-renders it when the language changes).
 */
export function presentError(error: unknown, t: Translate = activeLanguage): ErrorPresentation {
  const apiError = error instanceof BffError ? error : undefined;
  const body = apiError?.body ?? {
    code: 'UNEXPECTED_ERROR',
    message: error instanceof Error ? error.message : 'Unexpected error',
    details: [],
    recoveryAction: 'RETRY_NOW' as const,
    retryAfterSeconds: null,
  };
  const sessionExpired = isSessionExpired(error);
  const action = body.recoveryAction;
  const serverWords = speaksServerLanguage();
  const serverTitle =
    serverWords && TITLED_BY_SERVER_MESSAGE.has(body.code) ? firstSentence(body.message) : '';
  return {
    action,
    code: body.code,
    title: serverTitle || t(TITLES_BY_CODE[body.code] ?? `notices.action.${action}`),
    guidance: t(sessionExpired ? 'notices.guidance.SESSION_ENDED' : `notices.guidance.${action}`),
    serverMessage: serverTitle || !serverWords ? '' : body.message,
    retryAfterSeconds: action === 'RETRY_LATER' ? Math.max(1, Math.ceil(body.retryAfterSeconds ?? 5)) : null,
    fieldProblems:
      action === 'FIX_INPUT' ? body.details.map((detail) => toFieldProblem(detail, t, serverWords)) : [],
    reference: apiError?.traceId === undefined ? apiError?.requestId : traceReference(apiError.traceId),
    sessionExpired,
  };
}

/** A rule the interface does not know keeps the server's words, or a general one in another language. */
function toFieldProblem(detail: ErrorDetail, t: Translate, serverWords: boolean): FieldProblem {
  const rule = RULE_MESSAGES[detail.code];
  const message = rule ? t(rule) : serverWords && detail.message ? detail.message : t('notices.rule.invalid');
  return { field: detail.field, message };
}

/** Field problems keyed by dotted path, for forms that show each at its field. */
export function fieldProblemsByPath(error: unknown, t: Translate = activeLanguage): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const problem of presentError(error, t).fieldProblems) problems[problem.field] ??= problem.message;
  return problems;
}

/** Reads retry once on their own when the envelope says RETRY_NOW; nothing else retries silently. */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  return error instanceof BffError && error.recoveryAction === 'RETRY_NOW' && !isSessionExpired(error);
}

/** The DOM id of a form control for a server field path, shared by forms and error summaries. */
export function fieldId(path: string): string {
  return `field-${path.replace(/[^a-zA-Z0-9_-]+/g, '-')}`;
}
