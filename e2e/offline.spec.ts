import type { BrowserContext, Locator, Page, Request, Route } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { inboxCard, raiseDelay } from './support/notifications.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { signOutThroughMenu } from './support/sign-out.ts';
import { expectOnIdentityPlatform } from './support/page-location.ts';

// The service worker is part of what these journeys prove (e2e/support/browser.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/** Waits until the service worker controls the page. */
async function workerControls(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** Waits until the service worker is installed and controls the page, as it does from the next load on. */
async function offlinePackReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await workerControls(page);
}

/** Fails a request the service worker makes itself, as a browser without a network does. */
function failFromWorker(route: Route): Promise<void> {
  return route.request().serviceWorker() ? route.abort('internetdisconnected') : route.fallback();
}

/**
 * Takes the network away from the pages and from the service worker. Playwright's offline emulation
 * reaches a worker once it has attached to it: a worker started again (an idle one is stopped by the
 * browser) can fetch from the network for a moment before that, so its own requests are failed here too.
 */
async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route('**/*', failFromWorker);
}

async function goOnline(context: BrowserContext): Promise<void> {
  await context.unroute('**/*', failFromWorker);
  await context.setOffline(false);
}

/** Opens the trips once the offline pack is ready; the first upcoming trip's link, once it shows. */
async function firstUpcomingTrip(page: Page): Promise<Locator> {
  await offlinePackReady(page);
  await page.goto('/trips');
  const link = page.getByRole('region', { name: 'Upcoming' }).getByRole('article').first().getByRole('link');
  await expect(link).toBeVisible();
  return link;
}

/**
 * Counts the browser's reads still waiting for an answer (the live stream aside): the pages' and the
 * service worker's own. A read answered after the network went would be saved with what it says then, not
 * with what the traveler saw before; and the worker's fetch for a page goes on after the page has gone
 * (a catch-up read the live stream starts as the traveler leaves), so the pages' requests alone are not
 * enough.
 */
function readsInFlight(context: BrowserContext): () => number {
  const pending = new Set<Request>();
  const isRead = (request: Request) => {
    const { pathname } = new URL(request.url());
    return pathname.startsWith('/api/') && !pathname.endsWith('/stream');
  };
  context.on('request', (request) => {
    if (isRead(request)) pending.add(request);
  });
  context.on('requestfinished', (request) => pending.delete(request));
  context.on('requestfailed', (request) => pending.delete(request));
  return () => pending.size;
}

/** The traveler caches the browser holds (src/lib/private-cache.ts). */
function privateCaches(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await caches.keys()).filter((name) => name.startsWith('wayfare-private:')),
  );
}

/** A page rendered signed out: no navigation of a traveler, and none of the given words of theirs. */
async function expectNothingOfTheTravelers(page: Page, theirWords: string[]): Promise<void> {
  await expect(page.locator('#root')).not.toBeEmpty();
  for (const words of theirWords) await expect(page.getByText(words)).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
}

const lastUpdated = (page: Page) => page.getByText(/Saved for offline reading, last updated/);

test.describe('offline trip pack', () => {
  test('the trips, a trip, the inbox and the profile opened before stay readable offline with when they were last updated; a search says it needs the network', async ({
    signedInPage: page,
    context,
    admin,
    traveler,
  }) => {
    const before = await raiseDelay(admin, traveler.id, 'Saved');
    const inFlight = readsInFlight(context);
    const firstTrip = await firstUpcomingTrip(page);
    await demoControlsInPlace(page);
    const tripTitle = (await firstTrip.textContent()) ?? '';
    await firstTrip.click();
    await expect(page.getByRole('heading', { level: 1, name: tripTitle })).toBeVisible();
    const tripUrl = page.url();
    await page.goto('/inbox');
    await expect(inboxCard(page, before.title)).toHaveCount(1);
    await page.goto('/profile');
    await expect(page.getByLabel('Name')).toHaveValue(/.+/);
    const name = await page.getByLabel('Name').inputValue();
    await page.goto('/bookings');
    await expect(page.getByText(/^\d[\d,]* bookings?$/)).toBeVisible();
    await expect.poll(inFlight).toBe(0);

    // Away from the app (no live stream open, every read answered), the network goes; then something new
    // is said, which the inbox cannot know offline: it shows what was saved.
    await page.goto('about:blank');
    await expect.poll(inFlight).toBe(0);
    await goOffline(context);
    const after = await raiseDelay(admin, traveler.id, 'Unseen');

    await page.goto('/trips');
    await expect(page.getByRole('heading', { level: 1, name: 'Trips' })).toBeVisible();
    await expect(page.getByRole('link', { name: tripTitle }).first()).toBeVisible();
    await expect(lastUpdated(page)).toBeVisible();

    await page.goto(tripUrl);
    await expect(page.getByRole('heading', { level: 1, name: tripTitle })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Trip timeline' })).toBeVisible();
    await expect(lastUpdated(page)).toBeVisible();

    await page.goto('/inbox');
    await expect(inboxCard(page, before.title)).toHaveCount(1);
    await expect(inboxCard(page, after.title)).toHaveCount(0);
    await expect(lastUpdated(page)).toBeVisible();
    await expect(page.getByText(/Marking notifications read needs the network/)).toBeVisible();
    await expect(inboxCard(page, before.title).getByRole('button', { name: /Mark as read/ })).toBeDisabled();

    await page.goto('/profile');
    await expect(page.getByLabel('Name')).toHaveValue(name);
    await expect(lastUpdated(page)).toBeVisible();

    await page.goto('/bookings');
    await expect(page.getByRole('heading', { level: 1, name: 'Bookings' })).toBeVisible();
    await expect(lastUpdated(page)).toBeVisible();

    await page.goto('/flights');
    await expect(page.getByText(/Searching needs the network/)).toBeVisible();
    const search = page.getByRole('button', { name: 'Search flights' });
    await expect(search).toBeDisabled();

    // Back online, the search is offered again.
    await goOnline(context);
    await expect(search).toBeEnabled();
    await expect(page.getByText(/Searching needs the network/)).toHaveCount(0);
  });

  test('an answer still on its way when the traveler signs out is not saved: nothing of theirs stays in the browser', async ({
    signedInPage: page,
    context,
    traveler,
  }) => {
    await firstUpcomingTrip(page);

    // Two reads the service answers while the traveler is signed in, their answers held on the way back
    // until the traveler has signed out in another tab. They are read from a page of the site that does
    // not run the app, so that nothing reacts to the sign-out there.
    const held: (() => Promise<void>)[] = [];
    const bothHeld = Promise.withResolvers<void>();
    await context.route(/\/api\/(session|notifications)$/, async (route) => {
      if (!route.request().serviceWorker() || route.request().headers()['x-held'] !== 'yes') {
        return route.fallback();
      }
      const response = await route.fetch();
      held.push(() => route.fulfill({ response }));
      if (held.length === 2) bothHeld.resolve();
    });
    const reader = await context.newPage();
    await reader.goto('/healthz');
    await workerControls(reader);
    const reads = reader.evaluate(() =>
      Promise.all(
        ['/api/session', '/api/notifications'].map(
          async (path) =>
            (await fetch(path, { headers: { 'x-requested-with': 'wayfare', 'x-held': 'yes' } })).status,
        ),
      ),
    );
    await bothHeld.promise;

    await signOutThroughMenu(page);
    for (const release of held) await release();
    expect(await reads).toEqual([200, 200]);
    expect(await privateCaches(reader)).toEqual([]);

    await goOffline(context);
    await page.goto('/trips');
    await expectNothingOfTheTravelers(page, [traveler.name]);
  });

  test('signed out, then offline: nothing of the traveler’s renders', async ({
    signedInPage: page,
    context,
    traveler,
  }) => {
    const tripTitle = (await (await firstUpcomingTrip(page)).textContent()) ?? '';
    await page.goto('/profile');
    await expect(page.getByLabel('Name')).toHaveValue(/.+/);

    await signOutThroughMenu(page);

    await goOffline(context);
    for (const path of ['/trips', '/profile', '/inbox', '/']) {
      await page.goto(path);
      await expectNothingOfTheTravelers(page, [traveler.name, tripTitle]);
      // A signed-in page says why it shows nothing, not that something went wrong.
      if (path !== '/') {
        await expect(
          page.getByRole('heading', { level: 1, name: 'You are offline and signed out' }),
        ).toBeVisible();
      }
    }
    expect(await privateCaches(page)).toEqual([]);

    // Back online, the page goes on to sign in.
    await page.goto('/inbox');
    await expect(
      page.getByRole('heading', { level: 1, name: 'You are offline and signed out' }),
    ).toBeVisible();
    await goOnline(context);
    await expectOnIdentityPlatform(page);
  });
});
