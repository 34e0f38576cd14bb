import { useState } from 'react';
import type { LogoutResponse } from '#shared/api/logout-response.ts';
import { apiJson } from '../../lib/api-client.ts';
import { beginSignOut, cancelSignOut } from '../../lib/leave-ended-session.ts';
import { forgetTraveler } from '../../lib/forget-traveler.ts';
import { postToOtherTabs } from '../notifications/index.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useT } from '../../i18n/use-t.ts';

/** The only safe places to go after signing out: our own pages, or the identity platform's end-session page. */
function safeRedirect(target: string): string {
  try {
    const url = new URL(target, window.location.origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '/';
  } catch {
    return '/';
  }
}

/**
 * Ends the BFF session (POST /auth/logout, with the anti-forgery header), tells the other tabs, forgets
 * what this browser kept of the traveler (forgetTraveler), then follows the BFF to the identity
 * platform's end-session page so both sessions end.
 */
export function SignOutButton({ className = 'button button-secondary' }: { className?: string }) {
  const t = useT();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const signOut = async () => {
    setPending(true);
    setError(null);
    beginSignOut();
    // Before the session ends: a tab that meets the ended session first knows it was signed out.
    postToOtherTabs({ kind: 'signing-out' });
    try {
      const { redirectTo } = await apiJson<LogoutResponse>('/auth/logout', { method: 'POST' });
      // The other tabs hear it at once (the live stream's session-ended may reach this tab only after it
      // left), and each forgets what it kept: sessionStorage is every tab's own.
      postToOtherTabs({ kind: 'signed-out' });
      // After the session ended on the server, so no read still in flight can save an answer again.
      await forgetTraveler();
      window.location.assign(safeRedirect(redirectTo));
    } catch (caught) {
      cancelSignOut();
      postToOtherTabs({ kind: 'sign-out-failed' });
      setError(caught);
      setPending(false);
    }
  };

  return (
    <>
      <button type="button" className={className} onClick={() => void signOut()} disabled={pending}>
        {pending ? t('start.signingOut') : t('start.signOut')}
      </button>
      {error !== null && <ErrorNotice error={error} onRetry={() => void signOut()} />}
    </>
  );
}
