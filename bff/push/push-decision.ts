import type { WebPushResult } from './web-push-sender.ts';

/**
 * Outcomes of the push decision, one counter each:
 * - `suppressed-live`: delivered live to a visible app, so no system notification (no double alert);
 * - `sent`: a Web Push went to at least one of the traveler's subscriptions;
 * - `no-subscription`: not shown live, and the traveler has not opted in to push on any browser (or
 *   every subscription turned out gone or unusable);
 * - `duplicate`: the push channel repeated a notification already decided, on any instance;
 * - `deciding`: a repeat that came while another attempt was still deciding it; the webhook answers 503
 *   so the travel API retries, and the retry finds the decision taken;
 * - `failed`: no subscription accepted it and one may again (a push service down); the webhook answers
 *   503 so the travel API retries.
 */
export const PUSH_OUTCOMES = [
  'suppressed-live',
  'sent',
  'no-subscription',
  'duplicate',
  'deciding',
  'failed',
] as const;
export type PushOutcome = (typeof PUSH_OUTCOMES)[number];

/** What the push-versus-live decision rests on. */
export interface PushFacts {
  /** A visible app of the traveler showed the notification live (the delivery ledger says so). */
  shownLive: boolean;
  /** How many push subscriptions the traveler has. */
  subscriptions: number;
  /** What each push service answered, once the message was sent; absent before sending. */
  results?: readonly WebPushResult['kind'][];
}

/**
 * Push or not: nothing when the app showed it live or there is nowhere to push; otherwise `send`, and
 * once the push services answered, the outcome their answers make.
 */
export function pushDecision(facts: PushFacts & { results: readonly WebPushResult['kind'][] }): PushOutcome;
export function pushDecision(facts: PushFacts): PushOutcome | 'send';
export function pushDecision({ shownLive, subscriptions, results }: PushFacts): PushOutcome | 'send' {
  if (shownLive) return 'suppressed-live';
  if (subscriptions === 0) return 'no-subscription';
  if (results === undefined) return 'send';
  if (results.includes('accepted')) return 'sent';
  const removed = (kind: WebPushResult['kind']) => kind === 'gone' || kind === 'unusable';
  return results.every(removed) ? 'no-subscription' : 'failed';
}
