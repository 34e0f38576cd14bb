import { useEffect } from 'react';
import { leaveEndedSession, otherTabSigningOut } from '../lib/leave-ended-session.ts';
import { subscribeToOtherTabs } from '../features/notifications/hear-other-tabs.ts';

/**
 * Hears another tab's sign-out from a signed-in page's first render: this tab then forgets the traveler
 * and goes to the start page, and a session that ends while the sign-out is under way counts as signed
 * out, not expired. The live notifications hear it as well (live-stream.ts), but they start only after the
 * page's first paint (useAfterFirstPaint) and their code; a tab still loading when the traveler signs out
 * in another would otherwise meet the ended session without knowing why, and go to sign-in.
 */
export function useSignOutElsewhere(signedIn: boolean): void {
  useEffect(() => {
    if (!signedIn) return;
    return subscribeToOtherTabs((message) => {
      if (message.kind === 'signing-out' || message.kind === 'sign-out-failed')
        otherTabSigningOut(message.kind === 'signing-out');
      else if (message.kind === 'signed-out') void leaveEndedSession('/');
    });
  }, [signedIn]);
}
