import { useLiveConnectionState } from './live-connection-store.ts';

const LABELS = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  offline: 'Offline, will catch up',
} as const;

/** A quiet word about the live connection: no alert, just a state the traveler can glance at. */
export function LiveIndicator() {
  const state = useLiveConnectionState();
  return (
    <span className="live-indicator" role="status">
      <span className="live-dot" data-state={state === 'live' ? 'live' : 'reconnecting'} aria-hidden="true" />
      {LABELS[state]}
    </span>
  );
}
