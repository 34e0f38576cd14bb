import { expect, test } from './fixtures.ts';
import { STACK_WIDE } from './support/tags.ts';

// The service worker is part of what these journeys prove (e2e/support/browser.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

interface Release {
  latestVersion: string;
  minimumVersion: string;
}

test.describe('update check', { tag: STACK_WIDE }, () => {
  let current: Release;

  test.beforeEach(async ({ request }) => {
    const check = await request.get('/api/app/update-check');
    current = (await check.json()) as Release;
  });

  test.afterEach(async ({ admin }) => {
    await admin.put('app-release', current);
  });

  test('a newly announced version shows a banner the traveler can put off', async ({
    signedInPage: page,
    admin,
  }) => {
    await page.goto('/bookings');
    await expect(page.getByRole('heading', { level: 1, name: 'Bookings' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'New version' })).toHaveCount(0);

    const [major = 1, minor = 0] = current.latestVersion.split('.').map(Number);
    const next = `${major}.${minor + 1}.0`;
    await admin.put('app-release', { latestVersion: next, minimumVersion: current.minimumVersion });
    await page.reload();
    const banner = page.getByRole('complementary', { name: 'New version' });
    await expect(banner).toContainText(`A new version of Wayfare (${next}) is available.`);
    await expect(banner.getByRole('button', { name: 'Reload' })).toBeVisible();

    await banner.getByRole('button', { name: 'Later' }).click();
    await expect(banner).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Bookings' })).toBeVisible();
  });
});
