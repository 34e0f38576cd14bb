import { useEffect } from 'react';
import { data, isRouteErrorResponse, Link } from 'react-router';
import { useT } from '../i18n/use-t.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { useOnline } from '../lib/use-online.ts';

const OFFLINE_SIGNED_OUT = 'offline-signed-out';

/** What the signed-in pages' loader throws when the browser is offline and holds no session. */
export function offlineSignedOut() {
  return data(OFFLINE_SIGNED_OUT, { status: 401 });
}

export function isOfflineSignedOut(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 401 && error.data === OFFLINE_SIGNED_OUT;
}

/**
 * A signed-in page opened offline after signing out: says so, and goes on to sign in (through the page's
 * loader) the moment the network is back.
 */
export function OfflineSignedOutPage() {
  const t = useT();
  const online = useOnline();
  useDocumentTitle(t('offlineSignedOut.title'));
  useEffect(() => {
    if (online) window.location.reload();
  }, [online]);
  return (
    <div className="page">
      <div className="empty-state">
        <h1>{t('offlineSignedOut.title')}</h1>
        <p className="muted">{t('offlineSignedOut.hint')}</p>
        <Link className="button" to="/">
          {t('notFound.home')}
        </Link>
      </div>
    </div>
  );
}
