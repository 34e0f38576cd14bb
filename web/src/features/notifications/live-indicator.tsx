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
  const longest = Object.values(LABELS)
    .map((id) => t(id))
    .reduce((widest, label) => (label.length > widest.length ? label : widest));
  return (
    <span className="live-indicator" role="status">
      <span className="live-dot" data-state={state === 'live' ? 'live' : 'reconnecting'} aria-hidden="true" />
      {/* As wide as its longest word from the start (drawn unseen beside it): a change of state never
          rewraps the line it sits in, nor moves what follows it. */}
      <span className="live-label" data-longest={longest}>
        <span>{t(LABELS[state])}</span>
      </span>
    </span>
  );
}
