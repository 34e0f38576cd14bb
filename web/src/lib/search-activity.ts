import { useEffect, useSyncExternalStore } from 'react';

/** How many searches are streaming right now; nothing may interrupt the traveler while one is. */
let active = 0;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

/** Marks a search as in progress while `busy` is true. */
export function useSearchInProgress(busy: boolean): void {
  useEffect(() => {
    if (!busy) return;
    active += 1;
    notify();
    return () => {
      active -= 1;
      notify();
    };
  }, [busy]);
}

export function useIsSearchInProgress(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => active > 0,
  );
}
