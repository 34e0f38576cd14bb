import type { QueryKey } from '@tanstack/react-query';
import type { Formatters } from '../lib/intl-format.ts';
import { useT } from '../i18n/use-t.ts';
import { useOnline } from '../lib/use-online.ts';
import { useUpdatedAt } from '../lib/updated-at.ts';

/**
 * "Last updated <time>" of what a screen shows, from the answer's own date; offline it says that this is
 * what was saved when the traveler last opened it.
 */
export function LastUpdated({ queryKey, format }: { queryKey: QueryKey; format: Formatters }) {
  const updatedAt = useUpdatedAt(queryKey);
  const online = useOnline();
  const t = useT();
  if (!updatedAt) return null;
  return (
    <p className="last-updated small muted">
      {!online && <strong className="offline-badge">{t('lastUpdated.offline')}</strong>}
      <span>
        {online ? t('lastUpdated.online') : t('lastUpdated.saved')}{' '}
        <time dateTime={updatedAt}>{format.dateTime(updatedAt)}</time>
      </span>
    </p>
  );
}
