import { randomUUID } from 'node:crypto';
import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { NotificationsPageSchema } from '#shared/api/notifications.ts';
import { SessionStatusSchema } from '#shared/api/session-status.ts';
import { pushPayloadJson } from '../bff/push/push-payload.ts';
import { fullBrowserLaunchOptions } from './support/browser.ts';
import { expect, setProfileLocale, test } from './fixtures.ts';
import { inboxCard, raiseDelay, simulateDelay, type RaisedNotification } from './support/notifications.ts';
import { APP_ORIGIN } from './support/stack.ts';

// The service worker is part of what these journeys prove (e2e/support/browser.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

// System notifications and the alerts setting need the full browser (e2e/support/browser.ts).
test.use({ launchOptions: await fullBrowserLaunchOptions() });

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

interface Registration {
  registrationId: string;
  scopeURL: string;
  isDeleted: boolean;
}

interface Shown {
  title: string;
  tag: string;
  url: string;
}

/** Registers the app's service worker and returns its DevTools registration id. */
async function registerServiceWorker(page: Page, cdp: CDPSession): Promise<string> {
  const registrations: Registration[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: Registration[] }) => {
    registrations.push(...event.registrations);
  });
  await cdp.send('ServiceWorker.enable');
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
  });
  const ours = () => registrations.find((entry) => entry.scopeURL === `${APP_ORIGIN}/` && !entry.isDeleted);
  await expect.poll(ours).toBeDefined();
  return ours()?.registrationId ?? '';
}

/** The push payload the BFF sends for a notification (bff/push, read by web/service-worker/push-alerts.js). */
function pushPayload(notification: RaisedNotification): string {
  return JSON.stringify({
    notificationId: notification.id,
    title: notification.title,
    body: 'Your flight leaves later than planned.',
    tag: notification.id,
    url: notification.deepLink,
    severity: 'warning',
  });
}

/** The system notifications the service worker shows for `tag`, read back through the registration. */
async function systemNotifications(page: Page, tag: string): Promise<Shown[]> {
  return page.evaluate(async (wanted) => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications({ tag: wanted });
    return shown.map((notification) => ({
      title: notification.title,
      tag: notification.tag,
      url: (notification.data as { url?: string } | null)?.url ?? '',
    }));
  }, tag);
}

/** The words of the system notification the service worker shows for `tag`, and their language. */
async function notificationWords(
  page: Page,
  tag: string,
): Promise<{ title: string; body: string; lang: string }[]> {
  return page.evaluate(async (wanted) => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications({ tag: wanted });
    return shown.map(({ title, body, lang }) => ({ title, body, lang }));
  }, tag);
}

/**
 * Delivers pushes through DevTools, one after another, and returns once the service worker has handled
 * each: its push event settled, so any system notification it raised is on display. Only then may the
 * journey read the notifications back. Chromium's getNotifications() forgets a notification it finds
 * stored but not yet on display (platform_notification_context_impl.cc,
 * DoReadAllNotificationDataForServiceWorkerRegistration, deletes it from its records), so a read made
 * while the worker is showing one can lose it for good: it stays on screen and no later read lists it.
 */
async function deliverPushes(cdp: CDPSession, registrationId: string, payloads: string[]): Promise<void> {
  const outcomes: string[] = [];
  cdp.on('BackgroundService.backgroundServiceEventReceived', ({ backgroundServiceEvent: event }) => {
    if (event.serviceWorkerRegistrationId !== registrationId) return;
    if (event.service !== 'pushMessaging' || event.eventName !== 'Push event completed') return;
    outcomes.push(event.eventMetadata.find((entry) => entry.key === 'Status')?.value ?? '');
  });
  await cdp.send('BackgroundService.startObserving', { service: 'pushMessaging' });
  await cdp.send('BackgroundService.setRecording', { service: 'pushMessaging', shouldRecord: true });
  for (const data of payloads) {
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: APP_ORIGIN, registrationId, data });
  }
  await expect
    .poll(() => outcomes, { message: 'the service worker finished handling every push' })
    .toEqual(payloads.map(() => 'Success'));
}

/** Delivers a push through DevTools while no window of the app is open (a blank page keeps the browser). */
async function deliverWithNoAppOpen(
  context: BrowserContext,
  registrationId: string,
  data: string,
): Promise<void> {
  const blank = await context.newPage();
  const cdp = await context.newCDPSession(blank);
  await cdp.send('ServiceWorker.enable');
  await deliverPushes(cdp, registrationId, [data]);
  await cdp.detach();
  await blank.close();
}

async function openApp(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

test.describe('web push', () => {
  test.use({ permissions: ['notifications'] });

  test('a push for a notification the app did not show raises one system notification that opens the segment', async ({
    signedInPage: page,
    context,
    admin,
    traveler,
  }) => {
    await page.goto('/bookings');
    const cdp = await context.newCDPSession(page);
    const registrationId = await registerServiceWorker(page, cdp);
    const raised = await raiseDelay(admin, traveler.id);
    await page.close();

    await deliverWithNoAppOpen(context, registrationId, pushPayload(raised));
    const reader = await openApp(context, '/bookings');
    const segmentPath = `/trips/${raised.tripId}/segment/${raised.segmentId}`;
    expect(await systemNotifications(reader, raised.id)).toEqual([
      { title: raised.title, tag: raised.id, url: segmentPath },
    ]);

    // Headless Chromium has no notification centre to click, and a service worker may focus or open
    // a window only during a real click. The click opens the notification's own in-app link
    // (sw.js: notificationclick -> openInApp(data.url)); the traveler's browser follows it here.
    const [shown] = await systemNotifications(reader, raised.id);
    await reader.goto(shown?.url ?? '/');
    await expect(reader).toHaveURL(segmentPath);
    await expect(reader.getByRole('region', { name: 'Schedule' })).toBeVisible();
  });
  test('a push for a notification the open app already showed live raises no system notification', async ({
    signedInPage: page,
    context,
    admin,
    traveler,
  }) => {
    await page.goto('/inbox');
    await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    const cdp = await context.newCDPSession(page);
    const registrationId = await registerServiceWorker(page, cdp);
    await page.bringToFront();

    const shownLive = await raiseDelay(admin, traveler.id, 'Shown live');
    await expect(inboxCard(page, shownLive.title)).toHaveCount(1);
    // A notification this page never received: its push must still raise a system notification.
    const notShown: RaisedNotification = { ...shownLive, id: randomUUID(), title: 'Not shown live' };

    await deliverPushes(cdp, registrationId, [pushPayload(shownLive), pushPayload(notShown)]);

    expect(await systemNotifications(page, notShown.id)).toHaveLength(1);
    expect(await systemNotifications(page, shownLive.id)).toEqual([]);
  });

  test('a Spanish traveler’s system notification is written in Spanish from the event’s facts', async ({
    signedInPage: page,
    context,
    admin,
    traveler,
  }) => {
    await setProfileLocale(page, 'es-ES');
    await page.goto('/bookings');
    const registrationId = await registerServiceWorker(page, await context.newCDPSession(page));
    const { notification: raised, segment } = await simulateDelay(admin, traveler.id, 380);
    // The push the BFF sends for it: the notification as the travel API gives it, with the event's facts,
    // and the locale the session keeps of the profile.
    const headers = { 'x-requested-with': 'wayfare' };
    const list = NotificationsPageSchema.parse(
      await (await page.request.get('/api/notifications', { headers })).json(),
    );
    const notification = list.items.find((item) => item.id === raised.id);
    const session = SessionStatusSchema.parse(await (await page.request.get('/api/session')).json());
    const locale = session.authenticated && session.kind === 'traveler' ? session.traveler.locale : undefined;
    expect(locale).toBe('es-ES');
    if (!notification) throw new Error('the delay is not in the traveler’s notifications');
    const payload = pushPayloadJson(notification, locale);
    await page.close();

    await deliverWithNoAppOpen(context, registrationId, payload);
    const reader = await openApp(context, '/bookings');
    await expect.poll(() => notificationWords(reader, notification.id)).toHaveLength(1);
    const [shown] = await notificationWords(reader, notification.id);
    expect(shown?.lang).toBe('es');
    expect(shown?.title).toMatch(new RegExp(`^${segment.serviceNumber} se retrasa \\d+h( \\d+min)?$`));
    expect(shown?.body).toMatch(/: nueva salida .+ \(prevista .+\), llegada .+\.$/);
    expect(`${shown?.title} ${shown?.body}`).not.toMatch(/\b(is delayed|new departure|scheduled|arriving)\b/);
  });
});
