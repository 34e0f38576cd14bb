import { Link } from 'react-router';
import { useT } from '../i18n/use-t.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

export function NotFoundPage() {
  const t = useT();
  useDocumentTitle(t('notFound.title'));
  return (
    <div className="page">
      <div className="empty-state">
        <h1>{t('notFound.title')}</h1>
        <p className="muted">{t('notFound.hint')}</p>
        <Link className="button" to="/">
          {t('notFound.home')}
        </Link>
      </div>
    </div>
  );
}
