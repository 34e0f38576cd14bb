import type { MessageId } from '../i18n/i18n.ts';
import { useT } from '../i18n/use-t.ts';
import { useOnline } from '../lib/use-online.ts';

/**
 * Said beside an action that needs the network (a search, marking read) while the browser is offline;
 * the action itself is disabled meanwhile and offered again as soon as the network is back.
 */
export function OfflineNote({ message }: { message: MessageId }) {
  const online = useOnline();
  const t = useT();
  if (online) return null;
  return (
    <p className="offline-note" role="status">
      <strong>{t('offline.youAreOffline')}</strong> {t(message)}
    </p>
  );
}
