import { postToOtherTabs, subscribeToOtherTabs } from './notification-channel.ts';

/**
 * Decides, across all of a traveler's tabs, which one shows the toast for a notification: the first to
 * claim its id. The record is a short-lived list of ids in localStorage (never tokens or content),
 * claimed under a Web Lock when the browser has one, and the notification channel tells open tabs at once.
 */
const RECORD_LIFETIME_MS = 10 * 60 * 1000;
const MAX_RECORDED = 200;

type Record = Array<[id: string, at: number]>;

export interface ToastClaims {
  claim: (notificationId: string) => Promise<boolean>;
  close: () => void;
}

export function createToastClaims(travelerId: string, now: () => number = Date.now): ToastClaims {
  const storageKey = `wayfare:toasted:${travelerId}`;
  const claimedHere = new Set<string>();
  const unsubscribe = subscribeToOtherTabs((message) => {
    if (message.kind === 'toasted' && message.travelerId === travelerId) claimedHere.add(message.id);
  });

  const readRecord = (): Record => {
    try {
      const parsed: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
      if (!Array.isArray(parsed)) return [];
      const cutoff = now() - RECORD_LIFETIME_MS;
      return parsed.filter(
        (entry): entry is [string, number] =>
          Array.isArray(entry) &&
          typeof entry[0] === 'string' &&
          typeof entry[1] === 'number' &&
          entry[1] > cutoff,
      );
    } catch {
      return [];
    }
  };

  const claimInRecord = (id: string): boolean => {
    if (claimedHere.has(id)) return false;
    const record = readRecord();
    if (record.some(([known]) => known === id)) {
      claimedHere.add(id);
      return false;
    }
    record.push([id, now()]);
    try {
      localStorage.setItem(storageKey, JSON.stringify(record.slice(-MAX_RECORDED)));
    } catch {
      // Storage full or disabled: this tab still toasts once, other tabs learn it from the channel.
    }
    claimedHere.add(id);
    postToOtherTabs({ kind: 'toasted', travelerId, id });
    return true;
  };

  return {
    claim: async (id) => {
      const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
      if (locks) return locks.request(storageKey, () => claimInRecord(id));
      return claimInRecord(id);
    },
    close: unsubscribe,
  };
}
