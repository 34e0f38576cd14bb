import { describe, expect, it } from 'vitest';
import { pushDecision, type PushFacts, type PushOutcome } from './push-decision.ts';

const cases: [string, PushFacts, PushOutcome | 'send'][] = [
  ['shown live to a visible app: no push', { shownLive: true, subscriptions: 2 }, 'suppressed-live'],
  [
    'shown live, whatever the push services said',
    { shownLive: true, subscriptions: 1, results: ['accepted'] },
    'suppressed-live',
  ],
  ['not shown live, no subscription', { shownLive: false, subscriptions: 0 }, 'no-subscription'],
  ['not shown live, subscribed: send', { shownLive: false, subscriptions: 2 }, 'send'],
  [
    'one push service accepted',
    { shownLive: false, subscriptions: 2, results: ['failed', 'accepted'] },
    'sent',
  ],
  [
    'accepted beside a gone subscription',
    { shownLive: false, subscriptions: 2, results: ['gone', 'accepted'] },
    'sent',
  ],
  [
    'every subscription gone or unusable',
    { shownLive: false, subscriptions: 2, results: ['gone', 'unusable'] },
    'no-subscription',
  ],
  [
    'a push service refused, another is gone',
    { shownLive: false, subscriptions: 2, results: ['failed', 'gone'] },
    'failed',
  ],
  ['the only push service refused', { shownLive: false, subscriptions: 1, results: ['failed'] }, 'failed'],
];

describe('pushDecision', () => {
  it.each(cases)('%s', (_name, facts, expected) => {
    expect(pushDecision(facts)).toBe(expected);
  });
});
