import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useIsSearchInProgress } from '../../lib/search-activity.ts';
import { updateCheckQueries } from './update-check-queries.ts';

/**
 * "A new version is available": checked on start and every few minutes, never blocking, and held back
 * while a search is streaming so it cannot interrupt one.
 */
export function UpdateBanner() {
  const { data } = useQuery(updateCheckQueries.current());
  const searching = useIsSearchInProgress();
  const [dismissedVersion, setDismissedVersion] = useState<string | null>(null);

  if (!data || !(data.updateAvailable || data.updateRequired)) return null;
  if (searching || dismissedVersion === data.latestVersion) return null;

  return (
    <aside className="banner" aria-label="New version">
      <p className="banner-text" role="status">
        {data.updateRequired
          ? `Wayfare ${data.latestVersion} is required. Reload to keep using the app.`
          : `A new version of Wayfare (${data.latestVersion}) is available.`}
      </p>
      <div className="row">
        <button type="button" className="button button-small" onClick={() => window.location.reload()}>
          Reload
        </button>
        {!data.updateRequired && (
          <button
            type="button"
            className="button button-ghost button-small"
            onClick={() => setDismissedVersion(data.latestVersion)}
          >
            Later
          </button>
        )}
      </div>
    </aside>
  );
}
