import type { MessageId } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/use-t.ts';
import { useLiveConnectionState, type LiveConnectionState } from './live-connection-store.ts';

const LABELS: Record<LiveConnectionState, MessageId> = {
  connecting: 'live.connecting',
  live: 'live.live',
  reconnecting: 'live.reconnecting',
  offline: 'live.offline',
};

/** A quiet word about the live connection: no alert, just a state the traveler can glance at. */
export function LiveIndicator() {
  const state = useLiveConnectionState();
  const t = useT();
  return (
    <span className="live-indicator" role="status">
      <span className="live-dot" data-state={state === 'live' ? 'live' : 'reconnecting'} aria-hidden="true" />
      {t(LABELS[state])}
    </span>
  );
}
