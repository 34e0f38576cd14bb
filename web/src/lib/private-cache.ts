/**
 * The traveler's API answers kept for offline reading live in one Cache Storage cache per traveler,
 * `wayfare-private:<traveler id>`, and at most one such cache exists at a time: the service worker keeps
 * only the cache of the traveler the BFF last named, and the app drops them all when the session ends.
 * So one traveler's data is never served to another on the same browser.
 */
export const PRIVATE_CACHE_PREFIX = 'wayfare-private:';

export function privateCacheName(travelerId: string): string {
  return `${PRIVATE_CACHE_PREFIX}${encodeURIComponent(travelerId)}`;
}

/** Deletes every traveler's cache but `travelerId`'s (all of them without one); returns the kept name. */
export async function keepOnlyTraveler(
  cacheStorage: CacheStorage,
  travelerId: string | undefined,
): Promise<string | undefined> {
  const kept = travelerId === undefined ? undefined : privateCacheName(travelerId);
  const names = await cacheStorage.keys();
  await Promise.all(
    names
      .filter((name) => name.startsWith(PRIVATE_CACHE_PREFIX) && name !== kept)
      .map((name) => cacheStorage.delete(name)),
  );
  return kept;
}

/** The one traveler's cache there is, if any. */
export async function keptPrivateCache(cacheStorage: CacheStorage): Promise<string | undefined> {
  const names = (await cacheStorage.keys()).filter((name) => name.startsWith(PRIVATE_CACHE_PREFIX));
  return names.length === 1 ? names[0] : undefined;
}

/** The signed-in traveler an /api/session answer names (none for visitors and guests). */
export function travelerIdOfSession(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const session = body as { authenticated?: unknown; kind?: unknown; traveler?: { id?: unknown } };
  if (session.authenticated !== true || session.kind !== 'traveler') return undefined;
  return typeof session.traveler?.id === 'string' ? session.traveler.id : undefined;
}

/** Forgets every traveler's saved answers: on sign-out and when the session ended. */
export async function clearPrivateData(): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    await keepOnlyTraveler(caches, undefined);
  } catch {
    // Cache Storage refused (a private window's quota, a browser setting): then nothing was kept either.
  }
}
