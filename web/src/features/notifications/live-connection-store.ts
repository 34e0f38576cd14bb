import { useSyncExternalStore } from 'react';

/** State of the live notification connection, shared by the inbox page and the bell. */
export type LiveConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

let state: LiveConnectionState = 'connecting';
const listeners = new Set<() => void>();

export function setLiveConnectionState(next: LiveConnectionState): void {
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLiveConnectionState(): LiveConnectionState {
  return useSyncExternalStore(subscribe, () => state);
}
