import { useSyncExternalStore } from 'react';
import { hashKey, type QueryKey } from '@tanstack/react-query';

/**
 * When the server produced the answer a query shows: the answer's Date header. Offline, the service
 * worker serves a saved answer with the Date it had, so this is the "last updated" of what is on screen.
 */
const updatedAt = new Map<string, string>();
const listeners = new Set<() => void>();

export function recordUpdatedAt(queryKey: QueryKey, response: Response): void {
  const date = Date.parse(response.headers.get('Date') ?? '');
  const instant = new Date(Number.isNaN(date) ? Date.now() : date).toISOString();
  const key = hashKey(queryKey);
  if (updatedAt.get(key) === instant) return;
  updatedAt.set(key, instant);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The instant (ISO) the answer shown for `queryKey` was produced, once one arrived. */
export function useUpdatedAt(queryKey: QueryKey): string | undefined {
  const key = hashKey(queryKey);
  return useSyncExternalStore(subscribe, () => updatedAt.get(key));
}
