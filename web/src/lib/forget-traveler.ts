import { REMEMBERED_LANGUAGE } from '../i18n/load-language.ts';
import { clearPrivateData } from './private-cache.ts';

/** Runs one clean-up; a store the browser refuses (a private window, a setting) held nothing to forget. */
async function attempt(clean: () => unknown): Promise<void> {
  try {
    await clean();
  } catch {
    // Nothing was kept there, or nothing more can be done about it from here.
  }
}

function clearStorage(storage: Storage): void {
  const language = storage.getItem(REMEMBERED_LANGUAGE);
  storage.clear();
  if (language !== null) storage.setItem(REMEMBERED_LANGUAGE, language);
}

/** Deletes every IndexedDB database of the app; a deletion another open connection blocks goes on later. */
async function deleteDatabases(): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const databases = await indexedDB.databases();
  await Promise.all(
    databases.flatMap(({ name }) =>
      name === undefined
        ? []
        : [
            new Promise<void>((resolve) => {
              const request = indexedDB.deleteDatabase(name);
              request.onsuccess = () => resolve();
              request.onerror = () => resolve();
              request.onblocked = () => resolve();
            }),
          ],
    ),
  );
}

/** The browser stops this browser's Web Push subscription (the BFF already dropped it with the session). */
async function unsubscribePush(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
}

/**
 * Forgets everything of the traveler this tab's browser kept, when the session ended (signed out here or
 * in another tab, or expired): the answers saved for offline reading (Cache Storage), this tab's
 * sessionStorage (a checkout under way: name, email, phone, card reference), localStorage, IndexedDB, and
 * the browser's push subscription. Only the interface language stays, a setting of the device. Each
 * tab runs it for itself, as its sessionStorage is its own.
 */
export async function forgetTraveler(): Promise<void> {
  await Promise.all([
    clearPrivateData(),
    attempt(() => clearStorage(sessionStorage)),
    attempt(() => clearStorage(localStorage)),
    attempt(deleteDatabases),
    attempt(unsubscribePush),
  ]);
}
