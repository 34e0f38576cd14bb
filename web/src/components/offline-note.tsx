import { useOnline } from '../lib/use-online.ts';

/**
 * Said beside an action that needs the network (a search, marking read) while the browser is offline;
 * the action itself is disabled meanwhile and offered again as soon as the network is back.
 */
export function OfflineNote({ action }: { action: string }) {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="offline-note" role="status">
      <strong>You are offline.</strong> {action} needs the network; it is offered again as soon as you are
      back online.
    </p>
  );
}
