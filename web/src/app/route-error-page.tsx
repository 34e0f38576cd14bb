import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorNotice } from '../components/error-notice.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { isOfflineSignedOut, OfflineSignedOutPage } from './offline-signed-out.tsx';
import { useT } from '../i18n/use-t.ts';

/** What a route shows when its loader or rendering fails: the error grammar, with a reload. */
export function RouteErrorPage() {
  const error = useRouteError();
  const t = useT();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (isOfflineSignedOut(error)) return <OfflineSignedOutPage />;
  return (
    <div className="page">
      <h1 className="visually-hidden">{t('routeError.title')}</h1>
      <ErrorNotice error={error} onRetry={() => window.location.reload()} />
    </div>
  );
}
