import { subscribeToOtherTabs } from '../hear-other-tabs.ts';
import { postToOtherTabs } from '../notification-channel.ts';

/**
 * Decides, across all of a traveler's tabs, which one shows the toast for a notification: the first to
 * claim its id. Where the browser has Web Locks, the claim is a lock named after the notification, taken
 * only if free and kept for the record's lifetime by the tab that won it: the browser's lock manager is
 * one for all tabs, so two tabs hearing the same arrival at once cannot both win (localStorage alone
 * cannot promise that: a write in one tab reaches another tab's reads a moment later). A short-lived list
 * of ids in localStorage (never tokens or content) and the notification channel tell tabs that hear the
 * arrival later, and are the whole claim where Web Locks are missing.
 */
const RECORD_LIFETIME_MS = 10 * 60 * 1000;
const MAX_RECORDED = 200;

type Record = Array<[id: string, at: number]>;

export interface ToastClaims {
  claim: (notificationId: string) => Promise<boolean>;
  close: () => void;
}

/** The part of the Web Locks API a claim takes. */
export interface ClaimLocks {
  request(name: string, options: LockOptions, callback: LockGrantedCallback<unknown>): Promise<unknown>;
}

export interface ToastClaimsOptions {
  now?: () => number;
  /** The browser's lock manager; undefined where it has none. */
  locks?: ClaimLocks | undefined;
  storage?: Storage;
}

export function createToastClaims(travelerId: string, options: ToastClaimsOptions = {}): ToastClaims {
  const now = options.now ?? Date.now;
  const locks =
    'locks' in options ? options.locks : typeof navigator !== 'undefined' ? navigator.locks : undefined;
  const storage = options.storage ?? localStorage;
  const storageKey = `wayfare:toasted:${travelerId}`;
  const claimedHere = new Set<string>();
  /** Lets go of the claims this tab holds (it stops listening: signed out, or the page goes). */
  const holding = new AbortController();
  const unsubscribe = subscribeToOtherTabs((message) => {
    if (message.kind === 'toasted' && message.travelerId === travelerId) claimedHere.add(message.id);
  });

  const readRecord = (): Record => {
    try {
      const parsed: unknown = JSON.parse(storage.getItem(storageKey) ?? '[]');
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
      storage.setItem(storageKey, JSON.stringify(record.slice(-MAX_RECORDED)));
    } catch {
      // Storage full or disabled: this tab still toasts once, other tabs learn it from the channel.
    }
    claimedHere.add(id);
    postToOtherTabs({ kind: 'toasted', travelerId, id });
    return true;
  };

  /** Takes the notification's lock if no tab holds it, and keeps it for the record's lifetime. */
  const claimWithLock = (manager: ClaimLocks, id: string) =>
    new Promise<boolean>((resolve) => {
      manager
        .request(`${storageKey}:${id}`, { ifAvailable: true }, (lock) => {
          if (lock === null || holding.signal.aborted) {
            claimedHere.add(id);
            resolve(false);
            return undefined;
          }
          resolve(claimInRecord(id));
          return new Promise<void>((release) => {
            const timer = setTimeout(release, RECORD_LIFETIME_MS);
            holding.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              release();
            });
          });
        })
        .catch(() => resolve(claimInRecord(id)));
    });

  return {
    claim: (id) => {
      if (claimedHere.has(id)) return Promise.resolve(false);
      return locks ? claimWithLock(locks, id) : Promise.resolve(claimInRecord(id));
    },
    close: () => {
      holding.abort();
      unsubscribe();
    },
  };
}
