import { expect, test } from './fixtures.ts';

// The service worker is part of what these journeys prove (e2e/support/browser.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

for (const path of ['/', '/trips', '/flights', '/stays', '/bookings', '/inbox', '/profile']) {
  test(`${path} loads without a missing file`, async ({ signedInPage: page }) => {
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(missing).toEqual([]);
  });
}

test('the app ships its icons and web app manifest', async ({ signedInPage: page }) => {
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = (await (await page.request.get(manifestHref ?? '')).json()) as {
    name: string;
    short_name: string;
    theme_color: string;
    icons: { src: string; sizes: string; type: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Wayfare', short_name: 'Wayfare', theme_color: '#0b5cad' });
  expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const src of [
    ...manifest.icons.map((icon) => icon.src),
    '/favicon.ico',
    '/apple-touch-icon.png',
    '/favicon.svg',
  ]) {
    const response = await page.request.get(src);
    expect(response.status(), src).toBe(200);
    expect(response.headers()['content-type'], src).toMatch(/^image\//);
  }
});
