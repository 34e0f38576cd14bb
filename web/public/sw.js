/* global self, clients */
/**
 * Wayfare service worker: Web Push alerts for travel events.
 *
 * The BFF already skips the push when it delivered the notification live to a visible app; this
 * worker makes the last check when the push is rendered: a visible, focused window of the app shows
 * the alert in the page (and is told so), otherwise a system notification is shown. Every
 * notification uses tag = notification id, so a repeat replaces instead of stacking.
 */

const TRIP_SEGMENT_LINK = /^[a-z][a-z0-9+.-]*:\/\/trips\/([^/?#]+)\/segment\/([^/?#]+)\/?$/i;
const SAFE_IN_APP_PATH = /^\/(?!\/)[^\s\\]*$/;

self.addEventListener('install', (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(readPayload(event)));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openInApp(inAppPath(data.url)));
});

/** The push payload the BFF sends: { notificationId, title, body, tag, url, severity }. */
function readPayload(event) {
  try {
    const payload = event.data ? event.data.json() : null;
    if (payload && typeof payload.title === 'string') return payload;
  } catch {
    // An unreadable payload still gets a notification: a push must always show something.
  }
  return { title: 'Wayfare', body: 'You have a new travel update.', tag: 'wayfare-update', url: '/' };
}

async function showPush(payload) {
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const inView = windows.filter((client) => client.visibilityState === 'visible' && client.focused);
  if (inView.length > 0) {
    for (const client of inView)
      client.postMessage({ type: 'push-received', notificationId: payload.notificationId });
    return;
  }
  await self.registration.showNotification(payload.title, {
    body: payload.body,
    tag: payload.tag || payload.notificationId,
    data: { url: inAppPath(payload.url), notificationId: payload.notificationId },
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
