import { Link } from 'react-router';
import { useDocumentTitle } from '../lib/use-document-title.ts';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="page">
      <div className="empty-state">
        <h1>Page not found</h1>
        <p className="muted">The link may be old, or the page has moved.</p>
        <Link className="button" to="/">
          Go to the start page
        </Link>
      </div>
    </div>
  );
}
