import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst, NetworkOnly } from 'workbox-strategies';
import type { RouteHandlerCallbackOptions, WorkboxPlugin } from 'workbox-core/types.js';
import precacheManifest from 'virtual:precache-manifest';
import { keepOnlyTraveler, keptPrivateCache, travelerIdOfSession } from '../src/lib/private-cache.ts';

/**
 * The offline trip pack. The app shell (index.html, its scripts, styles and icons) is precached at install;
 * a page is loaded from the network and falls back to the precached shell offline. The traveler's reads
 * the app shows offline (session, trips, segments, inbox, profile, bookings) are answered by the network
 * when it answers and saved as they pass, in the cache of the traveler the BFF last named for this
 * browser (src/lib/private-cache.ts); offline, the saved answer is served, with the Date the server gave
 * it, which the app shows as "last updated". Nothing else (searches, streams, writes) is cached.
 */

const SERVER_PATHS = /^\/(api|auth|webhooks|healthz|readyz)(\/|$)/;
const SESSION_PATH = '/api/session';
/** The reads kept for offline: GET only (the router matches GET unless told). */
const PRIVATE_READS = /^\/api\/(session|profile|trips(\/[^/]+(\/segments\/[^/]+)?)?|notifications|bookings)$/;

precacheAndRoute(precacheManifest);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch (offline) {
        const shell = await matchPrecache('/index.html');
        if (shell) return shell;
        throw offline;
      }
    },
    { denylist: [SERVER_PATHS] },
  ),
);

/** A session that ended answers 401: then no traveler's saved answers may stay. */
const forgetOnSessionEnd: WorkboxPlugin = {
  fetchDidSucceed: async ({ response }) => {
    if (response.status === 401) await keepOnlyTraveler(caches, undefined);
    return response;
  },
};

/**
 * An answer is saved only while its traveler's cache is still there. Sign-out (and a session that ended)
 * deletes the cache; an answer the BFF gave before that and that arrives after it would otherwise open
 * the cache again, and the signed-out traveler's data would stay in this browser.
 */
const onlyIntoKeptCache = (cacheName: string): WorkboxPlugin => ({
  cacheWillUpdate: async ({ response }) => ((await caches.has(cacheName)) ? response : null),
});

const networkOnly = new NetworkOnly({ plugins: [forgetOnSessionEnd] });
const networkFirstIn = (cacheName: string) =>
  new NetworkFirst({ cacheName, plugins: [forgetOnSessionEnd, onlyIntoKeptCache(cacheName)] });

/** The session read names the traveler: their cache is kept (and this answer saved in it), any other goes. */
async function readSession(options: RouteHandlerCallbackOptions): Promise<Response> {
  const { request } = options;
  // The traveler's cache as the read began: if it is gone by the time the answer comes, the session
  // ended meanwhile (sign-out), and this answer must not bring the cache back.
  const keptBefore = await keptPrivateCache(caches);
  let response: Response;
  try {
    response = await fetch(request);
  } catch (offline) {
    const kept = await keptPrivateCache(caches);
    const saved = kept ? await (await caches.open(kept)).match(request) : undefined;
    if (saved) return saved;
    throw offline;
  }
  if (!response.ok) {
    if (response.status === 401) await keepOnlyTraveler(caches, undefined);
    return response;
  }
  const travelerId = travelerIdOfSession(
    await response
      .clone()
      .json()
      .catch(() => null),
  );
  if (keptBefore !== undefined && !(await caches.has(keptBefore))) return response;
  const kept = await keepOnlyTraveler(caches, travelerId);
  if (kept) await (await caches.open(kept)).put(request, response.clone());
  return response;
}

/** The traveler's cache, learned from the BFF when this worker has not seen a session read yet. */
async function currentTravelerCache(): Promise<string | undefined> {
  const kept = await keptPrivateCache(caches);
  if (kept) return kept;
  try {
    await readSession({
      request: new Request(SESSION_PATH, { credentials: 'same-origin' }),
    } as RouteHandlerCallbackOptions);
  } catch {
    return undefined;
  }
  return keptPrivateCache(caches);
}

registerRoute(
  ({ url, sameOrigin }) => sameOrigin && PRIVATE_READS.test(url.pathname),
  async (options) => {
    if (options.url.pathname === SESSION_PATH) return readSession(options);
    const cacheName = await currentTravelerCache();
    const strategy = cacheName ? networkFirstIn(cacheName) : networkOnly;
    return strategy.handle(options);
  },
);
