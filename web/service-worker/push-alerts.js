/* global self, clients, caches */
/**
 * Wayfare service worker: Web Push alerts for travel events.
 *
 * The BFF already skips the push when it delivered the notification live to a visible app; this
 * worker makes the last check when the push is rendered: it asks each visible window of the app
 * whether it already showed that notification live (a MessageChannel question, answered within
 * ANSWER_TIMEOUT_MS), and shows a system notification unless one says yes. Window focus plays no
 * part: a visible app that never received the notification still gets the alert. Every
 * notification uses tag = notification id, so a repeat replaces instead of stacking.
 *
 * A push's title and body are written here in the traveler's language, from the event and its facts
 * the BFF sends, by the code and catalogs of the app's inbox (push-text.ts); the travel API's English
 * only where the push has no facts to write from.
 */

import { pushText, unreadablePushText } from './push-text.ts';

const TRIP_SEGMENT_LINK = /^[a-z][a-z0-9+.-]*:\/\/trips\/([^/?#]+)\/segment\/([^/?#]+)\/?$/i;
const SAFE_IN_APP_PATH = /^\/(?!\/)[^\s\\]*$/;
/** How long a window has to answer whether it showed a notification; silence counts as no. */
const ANSWER_TIMEOUT_MS = 1000;
/** The traveler's saved answers (src/lib/private-cache.ts): their profile names their language. */
const PRIVATE_CACHE_PREFIX = 'wayfare-private:';

self.addEventListener('install', (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** Pushes are decided one after another, so their notifications appear in the order they arrived. */
let pushesInOrder = Promise.resolve();

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  const shown = pushesInOrder.then(() => showPush(payload));
  pushesInOrder = shown.catch(() => undefined);
  event.waitUntil(shown);
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openInApp(inAppPath(data.url)));
});

/** The push payload the BFF sends (shared/api/push-payload.ts); null if unreadable. */
function readPayload(event) {
  try {
    const payload = event.data ? event.data.json() : null;
    if (payload && typeof payload.title === 'string') return payload;
  } catch {
    // An unreadable payload still gets a notification: a push must always show something.
  }
  return null;
}

/**
 * The locale of the signed-in traveler when the push names none: their profile's, as the app last read it
 * (saved for offline in their cache), else the browser's.
 */
async function travelerLocale() {
  let locale = (self.navigator && self.navigator.language) || '';
  try {
    const names = (await caches.keys()).filter((name) => name.startsWith(PRIVATE_CACHE_PREFIX));
    const profile =
      names.length === 1 ? await (await caches.open(names[0])).match('/api/profile') : undefined;
    const body = profile ? await profile.json() : null;
    if (body && typeof body.locale === 'string') locale = body.locale;
  } catch {
    // No Cache Storage here, or no profile saved: the browser's language.
  }
  return locale;
}

async function showPush(read) {
  const payload = read ?? { tag: 'wayfare-update', url: '/' };
  if (await shownLiveInView(payload.notificationId)) return;
  const locale = typeof payload.locale === 'string' ? payload.locale : await travelerLocale();
  const text = read ? pushText(read, locale) : unreadablePushText(locale);
  await self.registration.showNotification(text.title, {
    body: text.body,
    lang: text.lang,
    tag: payload.tag || payload.notificationId,
    data: { url: inAppPath(payload.url), notificationId: payload.notificationId },
  });
}

/** True when a visible window of the app says it already showed this notification live. */
async function shownLiveInView(notificationId) {
  if (typeof notificationId !== 'string' || notificationId === '') return false;
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const visible = windows.filter((client) => client.visibilityState === 'visible');
  const answers = await Promise.all(visible.map((client) => askShownLive(client, notificationId)));
  return answers.includes(true);
}

/**
 * Asks one window over a MessageChannel: { type: 'was-shown-live', notificationId } -> { shown }.
 * A window that cannot answer (an older version of the app, busy, closing) counts as not shown.
 */
function askShownLive(client, notificationId) {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    const settle = (shown) => {
      clearTimeout(timer);
      port1.close();
      resolve(shown);
    };
    const timer = setTimeout(() => settle(false), ANSWER_TIMEOUT_MS);
    port1.onmessage = (event) => settle(Boolean(event.data && event.data.shown === true));
    try {
      client.postMessage({ type: 'was-shown-live', notificationId }, [port2]);
    } catch {
      settle(false);
    }
  });
}

/** `<scheme>://trips/<tripId>/segment/<segmentId>` or an in-app path; anything else opens the start page. */
function inAppPath(url) {
  if (typeof url !== 'string') return '/';
  const deepLink = TRIP_SEGMENT_LINK.exec(url);
  if (deepLink) return `/trips/${deepLink[1]}/segment/${deepLink[2]}`;
  return SAFE_IN_APP_PATH.test(url) ? url : '/';
}

/** Focuses a window of the app and takes it to the path, or opens a new one there. */
async function openInApp(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const existing = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (!existing) {
    await clients.openWindow(target);
    return;
  }
  const focused = await existing.focus();
  try {
    await focused.navigate(target);
  } catch {
    // An uncontrolled window cannot be navigated from here; the app routes itself on this message.
    focused.postMessage({ type: 'navigate', url: path });
  }
}
