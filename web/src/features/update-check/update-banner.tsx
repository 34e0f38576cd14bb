import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n/use-t.ts';
import { useIsSearchInProgress } from '../../lib/search-activity.ts';
import { updateCheckQueries } from './update-check-queries.ts';

const RELOADED_FOR = 'wayfare:reloaded-for-version';

/** The version this tab already reloaded for: if the reload still serves the old build, do not nag. */
function reloadedFor(): string | null {
  try {
    return sessionStorage.getItem(RELOADED_FOR);
  } catch {
    return null;
  }
}

function rememberReloadFor(version: string): void {
  try {
    sessionStorage.setItem(RELOADED_FOR, version);
  } catch {
    // Without storage the banner may come back after the reload; it stays dismissible.
  }
}

/**
 * "A new version is available": checked on start and every few minutes, never blocking, and held back
 * while a search is streaming so it cannot interrupt one.
 */
export function UpdateBanner() {
  const { data } = useQuery(updateCheckQueries.current());
  const searching = useIsSearchInProgress();
  const t = useT();
  const [dismissedVersion, setDismissedVersion] = useState<string | null>(() => reloadedFor());

  if (!data || !(data.updateAvailable || data.updateRequired)) return null;
  if (searching || dismissedVersion === data.latestVersion) return null;

  return (
    <aside className="banner" aria-label={t('update.label')}>
      <p className="banner-text" role="status">
        {data.updateRequired
          ? t('update.required', { version: data.latestVersion })
          : t('update.available', { version: data.latestVersion })}
      </p>
      <div className="row">
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            rememberReloadFor(data.latestVersion);
            window.location.reload();
          }}
        >
          {t('update.reload')}
        </button>
        {!data.updateRequired && (
          <button
            type="button"
            className="button button-ghost button-small"
            onClick={() => setDismissedVersion(data.latestVersion)}
          >
            {t('update.later')}
          </button>
        )}
      </div>
    </aside>
  );
}
