import type { Notification } from '#shared/upstream/notifications.ts';

export type NotificationListener = (notification: Notification) => void;

export interface PublishResult {
  /** Open streams of the traveler that received it live. */
  delivered: number;
  /** True when the multi-worker gap swallowed it: persisted, but sent to no stream. */
  gapped: boolean;
}

/**
 * In-process fan-out of new notifications to the traveler's open streams. Only the streams of this
 * process receive them, as in the spec; the multi-worker gap share makes a matching part of them miss
 * every stream, as if another worker had dispatched them.
 */
export class NotificationFanOut {
  readonly #listeners = new Map<string, Set<NotificationListener>>();
  readonly #gapShare: () => number;
  #gapCredit = 0;

  constructor({ gapShare }: { gapShare: () => number }) {
    this.#gapShare = gapShare;
  }

  subscribe(travelerId: string, listener: NotificationListener): () => void {
    let listeners = this.#listeners.get(travelerId);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(travelerId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(travelerId) === listeners)
        this.#listeners.delete(travelerId);
    };
  }

  publish(travelerId: string, notification: Notification): PublishResult {
    if (this.#missedByThisWorker()) return { delivered: 0, gapped: true };
    const listeners = [...(this.#listeners.get(travelerId) ?? [])];
    for (const listener of listeners) listener(notification);
    return { delivered: listeners.length, gapped: false };
  }

  /** Open streams, of one traveler or of all. */
  streamCount(travelerId?: string): number {
    if (travelerId !== undefined) return this.#listeners.get(travelerId)?.size ?? 0;
    let count = 0;
    for (const listeners of this.#listeners.values()) count += listeners.size;
    return count;
  }

  /** Deterministic share: with 0.25, exactly every fourth notification is missed. */
  #missedByThisWorker(): boolean {
    const share = this.#gapShare();
    if (share <= 0) {
      this.#gapCredit = 0;
      return false;
    }
    this.#gapCredit += share;
    if (this.#gapCredit >= 1 - 1e-9) {
      this.#gapCredit -= 1;
      return true;
    }
    return false;
  }
}
