import { useSyncExternalStore } from 'react';

/**
 * Whether the page has shown its first content yet. Parts of every page that the traveler does not come
 * for (the live notifications and their stream, the inbox's unread count, the demo controls, the update
 * check, the profile's language check) wait for it, so that on a slow network and a slow phone the page's
 * own code and data go first instead of sharing the connection and the main thread with them.
 *
 * Settled, once, by the browser's first contentful paint (Paint Timing). A hidden tab paints nothing, so
 * it does not wait; nor does a browser without Paint Timing, which has no way to say. Nor does a tab still
 * without a paint `PAINT_WAIT_MS` after the app started (a window the browser does not draw; longer than a
 * first paint takes on a slow phone over a slow network, or on a busy machine): the wait only puts things
 * in order, it never holds them back for good.
 */
export const PAINT_WAIT_MS = 10_000;

let painted = false;
const listeners = new Set<() => void>();
let stopWatching = (): void => undefined;

function settle(): void {
  if (painted) return;
  painted = true;
  stopWatching();
  for (const listener of listeners) listener();
  listeners.clear();
}

function watchFirstPaint(): void {
  if (
    typeof document === 'undefined' ||
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes.includes('paint')
  ) {
    painted = true;
    return;
  }
  const observer = new PerformanceObserver((entries) => {
    if (entries.getEntriesByName('first-contentful-paint').length) settle();
  });
  const settleIfHidden = () => {
    if (document.visibilityState === 'hidden') settle();
  };
  const timer = setTimeout(settle, PAINT_WAIT_MS);
  stopWatching = () => {
    observer.disconnect();
    document.removeEventListener('visibilitychange', settleIfHidden);
    clearTimeout(timer);
  };
  // `buffered` also reports a paint that happened before this module ran.
  observer.observe({ type: 'paint', buffered: true });
  document.addEventListener('visibilitychange', settleIfHidden);
  settleIfHidden();
}

watchFirstPaint();

function subscribe(listener: () => void): () => void {
  if (painted) return () => undefined;
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once the page has shown its first content (at once in a hidden tab); never false again. */
export function useAfterFirstPaint(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => painted,
    () => false,
  );
}
