import { expect, test } from './fixtures.ts';

// The service worker is part of what these journeys prove (e2e/support/browser.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

test('the start page, signed out, fetches no traveler feature: no trips code and no trips data', async ({
  page,
}) => {
  const scripts: string[] = [];
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.resourceType() === 'script') scripts.push(pathname);
    if (pathname.startsWith('/api/')) calls.push(pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.some((script) => /start-page/.test(script))).toBe(true);
  expect(scripts.filter((script) => /trip|timeline/i.test(script))).toEqual([]);
  expect(calls.filter((call) => call.startsWith('/api/trips'))).toEqual([]);
});

test('a traveler’s start page leads with the next trip, its code fetched for the traveler', async ({
  page,
  signIn,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await signIn();
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
  await expect(page.locator('.next-trip:not([aria-busy])')).toBeVisible();
  expect(scripts.some((script) => /next-trip-panel/.test(script))).toBe(true);
});
