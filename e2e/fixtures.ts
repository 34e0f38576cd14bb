import { test as base, expect, type Page } from '@playwright/test';
import { AdminClient } from './support/admin-client.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { APP_ORIGIN, STACK, TRAVEL_API_ORIGIN } from './support/stack.ts';
import { testTraveler, type TestTraveler } from './support/test-travelers.ts';

export { expect };

interface WorkerFixtures {
  /** The test traveler this worker owns: tests that change a traveler's state never share one. */
  traveler: TestTraveler;
  /** The travel API stand-in's admin API. */
  admin: AdminClient;
}

interface TestFixtures {
  /** Signs `page` in through the real identity sign-in page and lands on `returnTo` (default `/`). */
  signIn: (options?: { page?: Page; returnTo?: string; traveler?: TestTraveler }) => Promise<void>;
  /** A page already signed in as the worker's traveler, on the start page. */
  signedInPage: Page;
  /** Clears every injected fault after each test, whatever the test did. */
  clearFaultsAfterTest: void;
}

/** Sets the signed-in traveler's profile locale; true when it changed. */
export async function setProfileLocale(page: Page, locale: string): Promise<boolean> {
  const headers = { 'x-requested-with': 'wayfare' };
  const profile = (await (await page.request.get('/api/profile', { headers })).json()) as { locale: string };
  if (profile.locale === locale) return false;
  const saved = await page.request.patch('/api/profile', { headers, data: { locale } });
  expect(saved.ok()).toBe(true);
  return true;
}

/** Fills the identity stand-in's sign-in form; the browser must be on it. */
export async function submitIdentitySignIn(page: Page, traveler: TestTraveler): Promise<void> {
  await page.getByLabel('Email').fill(traveler.email);
  await page.getByLabel('Password').fill(traveler.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  traveler: [
    // parallelIndex is unique among the workers running at the same time, whatever the project.
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from it.
    async ({}, use, workerInfo) => use(testTraveler(workerInfo.parallelIndex + 1)),
    { scope: 'worker' },
  ],

  admin: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext({
        baseURL: `${TRAVEL_API_ORIGIN}/admin/`,
        extraHTTPHeaders: { Authorization: `Bearer ${STACK.adminToken}` },
      });
      await use(new AdminClient(request));
      await request.dispose();
    },
    { scope: 'worker' },
  ],

  clearFaultsAfterTest: [
    async ({ admin }, use) => {
      await use();
      await admin.delete('faults');
    },
    { auto: true },
  ],

  signIn: async ({ page, traveler }, use) => {
    await use(async (options = {}) => {
      const target = options.page ?? page;
      const returnTo = options.returnTo ?? '/';
      await target.goto(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
      await submitIdentitySignIn(target, options.traveler ?? traveler);
      const landing = new URL(returnTo, APP_ORIGIN);
      await target.waitForURL((url) => url.origin === APP_ORIGIN && url.pathname === landing.pathname);
      // The suite's own travelers read the app in English unless a journey says otherwise; the generated
      // profile may be in any locale. The demo travelers keep theirs (the suite only reads their data).
      if (!options.traveler && (await setProfileLocale(target, 'en-GB'))) await target.reload();
      await demoControlsInPlace(target);
    });
  },

  signedInPage: async ({ page, signIn }, use) => {
    await signIn();
    await use(page);
  },
});
