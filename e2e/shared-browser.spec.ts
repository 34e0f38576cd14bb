import type { Page } from '@playwright/test';
import { fullBrowserLaunchOptions } from './support/browser.ts';
import { expect, test } from './fixtures.ts';
import { isoDateFromToday } from './support/dates.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { expectInApp } from './support/page-location.ts';
import { installBrowserPushService } from './support/push-service.ts';
import { signOutThroughMenu } from './support/sign-out.ts';

// The service worker is part of what these journeys prove (e2e/support/browser.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

// System notifications and the alerts setting need the full browser (e2e/support/browser.ts).
test.use({ launchOptions: await fullBrowserLaunchOptions() });

/**
 * A browser several people use: signing out, in any tab, leaves nothing of the traveler behind (a checkout
 * under way, storage, databases, saved answers, the push subscription), and the alerts setting shows what
 * holds for whoever is signed in now.
 */

interface KeptState {
  sessionStorage: string[];
  localStorage: string[];
  databases: string[];
  privateCaches: string[];
}

/** What this tab's browser keeps for the app: storage keys (the interface language aside), databases, caches. */
function keptState(page: Page): Promise<KeptState> {
  return page.evaluate(async () => ({
    sessionStorage: Object.keys(sessionStorage),
    localStorage: Object.keys(localStorage).filter((key) => key !== 'wayfare:language'),
    databases: (await indexedDB.databases()).map((database) => database.name ?? ''),
    privateCaches: (await caches.keys()).filter((name) => name.startsWith('wayfare-private:')),
  }));
}

function alertsSetting(page: Page) {
  return page.getByRole('region', { name: 'Alerts on this device' });
}

async function turnOnAlerts(page: Page): Promise<void> {
  await alertsSetting(page).getByRole('button', { name: 'Turn on alerts' }).click();
  await expect(alertsSetting(page).getByText('Alerts are on')).toBeVisible();
}

test.describe('a shared browser', () => {
  test.use({ permissions: ['notifications'] });

  test('signing out in one tab forgets the traveler in every tab: the checkout, storage, databases and the push subscription', async ({
    signedInPage: page,
    context,
  }) => {
    const pushService = await installBrowserPushService(context);

    // This tab: a checkout under way (the offer and the traveler's details are kept for a reload).
    await page.goto(`/flights?trip=one-way&leg=ZRH.LHR.${isoDateFromToday(250)}&adults=1&cabin=economy`);
    await demoControlsInPlace(page);
    const offer = page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first();
    await offer.getByText('Details and booking').press('Enter');
    await offer.getByRole('button', { name: /^Book/ }).click();
    await expect(page).toHaveURL(/\/checkout\//);
    await expect(page.getByLabel('Full name')).not.toHaveValue('');
    expect((await keptState(page)).sessionStorage).toEqual([expect.stringMatching(/^wayfare:checkout:/)]);

    // Another tab: alerts on, a submitted checkout of its own, and a database of the app.
    const other = await context.newPage();
    await other.goto('/inbox');
    await turnOnAlerts(other);
    await other.evaluate(async () => {
      sessionStorage.setItem('wayfare:checkout:offer-2:attempt', JSON.stringify(['Test Traveler', 'k-1']));
      localStorage.setItem('wayfare:kept', '1');
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('wayfare-kept');
        open.onupgradeneeded = () => open.result.createObjectStore('kept');
        open.onsuccess = () => {
          open.result.close();
          resolve();
        };
        open.onerror = () => reject(new Error('IndexedDB refused'));
      });
    });
    expect(pushService.current()).not.toBeNull();

    await signOutThroughMenu(page);
    // The other tab leaves the traveler's pages for the start page by itself.
    await expect(other).toHaveURL('/');
    await expect(other.getByRole('button', { name: 'Sign in', exact: true }).first()).toBeVisible();

    const nothing: KeptState = { sessionStorage: [], localStorage: [], databases: [], privateCaches: [] };
    for (const tab of [page, other]) expect(await keptState(tab)).toEqual(nothing);
    expect(pushService.current()).toBeNull();
  });

  test('a tab whose live notifications have not started yet still leaves for the start page when another signs out', async ({
    signedInPage: page,
    context,
  }) => {
    const other = await context.newPage();
    // That tab's live notifications never get their code, so they never hear the other tabs.
    await other.route(/\/assets\/live-notifications-[\w-]+\.js$/, () => undefined);
    await other.goto('/trips');
    await expect(other.getByRole('heading', { level: 1, name: 'Trips' })).toBeVisible();
    await other.evaluate(() =>
      sessionStorage.setItem('wayfare:checkout:offer-3:attempt', '["Test Traveler"]'),
    );

    await signOutThroughMenu(page);
    await expect(other).toHaveURL('/');
    await expect(other.getByRole('button', { name: 'Sign in', exact: true }).first()).toBeVisible();
    expect((await keptState(other)).sessionStorage).toEqual([]);
  });

  test('the alerts setting shows what holds for whoever is signed in: a subscription another session left shows off', async ({
    signedInPage: page,
    context,
    signIn,
    newTraveler,
  }) => {
    const pushService = await installBrowserPushService(context);
    await page.goto('/inbox');
    await turnOnAlerts(page);

    // The session ends where no page of the app sees it (as when it expires with the browser closed):
    // the browser keeps its push subscription.
    await page.goto('about:blank');
    const logout = await page.request.post('/auth/logout', { headers: { 'x-requested-with': 'wayfare' } });
    expect(logout.status()).toBe(200);
    await page.goto(((await logout.json()) as { redirectTo: string }).redirectTo);
    await expectInApp(page, '/');
    expect(pushService.current()).not.toBeNull();

    // Someone else signs in on this browser: alerts are off for them until they turn them on.
    await signIn({ traveler: await newTraveler(), returnTo: '/inbox' });
    await expect(alertsSetting(page).getByRole('button', { name: 'Turn on alerts' })).toBeVisible();
    await expect(alertsSetting(page).getByText('Alerts are on')).toHaveCount(0);
    await turnOnAlerts(page);
    // A fresh subscription replaced the one left behind, and the BFF holds it for this session.
    expect(pushService.issued).toHaveLength(2);
    const session = await page.request.get('/api/push/subscriptions', {
      headers: { 'x-requested-with': 'wayfare' },
    });
    expect(await session.json()).toEqual({ endpoints: [pushService.current()?.endpoint] });

    await signOutThroughMenu(page);
    expect(pushService.current()).toBeNull();
  });
});
