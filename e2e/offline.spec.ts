import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { inboxCard, raiseDelay } from './support/notifications.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { signOutThroughMenu } from './support/sign-out.ts';

/** Waits until the service worker is installed and controls the page, as it does from the next load on. */
async function offlinePackReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
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
    await offlinePackReady(page);

    await page.goto('/trips');
    await demoControlsInPlace(page);
    const firstTrip = page.getByRole('region', { name: 'Upcoming' }).getByRole('article').first();
    const tripTitle = (await firstTrip.getByRole('link').textContent()) ?? '';
    await firstTrip.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: tripTitle })).toBeVisible();
    const tripUrl = page.url();
    await page.goto('/inbox');
    await expect(inboxCard(page, before.title)).toHaveCount(1);
    await page.goto('/profile');
    await expect(page.getByLabel('Name')).toHaveValue(/.+/);
    const name = await page.getByLabel('Name').inputValue();

    // Away from the app (no live stream open), the network goes; then something new is said, which the
    // inbox cannot know offline: it shows what was saved.
    await page.goto('about:blank');
    await context.setOffline(true);
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

    await page.goto('/flights');
    await expect(page.getByText(/Searching needs the network/)).toBeVisible();
    const search = page.getByRole('button', { name: 'Search flights' });
    await expect(search).toBeDisabled();

    // Back online, the search is offered again.
    await context.setOffline(false);
    await expect(search).toBeEnabled();
    await expect(page.getByText(/Searching needs the network/)).toHaveCount(0);
  });

  test('signed out, then offline: nothing of the traveler’s renders', async ({
    signedInPage: page,
    context,
    traveler,
  }) => {
    await offlinePackReady(page);
    await page.goto('/trips');
    const tripTitle =
      (await page
        .getByRole('region', { name: 'Upcoming' })
        .getByRole('article')
        .first()
        .getByRole('link')
        .textContent()) ?? '';
    await page.goto('/profile');
    await expect(page.getByLabel('Name')).toHaveValue(/.+/);

    await signOutThroughMenu(page);

    await context.setOffline(true);
    for (const path of ['/trips', '/profile', '/inbox', '/']) {
      await page.goto(path);
      await expect(page.locator('#root')).not.toBeEmpty();
      await expect(page.getByText(traveler.name)).toHaveCount(0);
      await expect(page.getByText(tripTitle)).toHaveCount(0);
      await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    }
    const saved = await page.evaluate(async () =>
      (await caches.keys()).filter((name) => name.startsWith('wayfare-private:')),
    );
    expect(saved).toEqual([]);
  });
});
