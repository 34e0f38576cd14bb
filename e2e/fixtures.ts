import { test as base, expect, type Page } from '@playwright/test';
import { AdminClient } from './support/admin-client.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { APP_ORIGIN, STACK, TRAVEL_API_ORIGIN } from './support/stack.ts';
import { ensureTraveler, SharedTravelersWatch } from './support/shared-travelers.ts';
import { STACK_WIDE } from './support/tags.ts';
import { journeyTraveler, SHARED_TRAVELERS, type TestTraveler } from './support/test-travelers.ts';

export { expect };

/** What a failure of the shared travelers' check adds: the rule, and where it is written. */
const SHARED_RULE =
  'Journeys only read the demo travelers; a journey that changes a traveler signs in as its own ' +
  '(the `traveler` or `newTraveler` fixture). See e2e/README.md.';

interface WorkerFixtures {
  /** The travel API stand-in's admin API. */
  admin: AdminClient;
  /** Hands out travelers no other journey of the run signs in as, created in the travel API in English. */
  travelerSource: () => Promise<TestTraveler>;
  /** The travelers journeys share and only read: the demo travelers (Alex, Sam, Jordan). */
  sharedTravelerList: readonly TestTraveler[];
  /**
   * Watches the shared travelers from the worker's start (automatic): after each journey
   * (`sharedTravelersUnchanged`) and when the worker ends, a change fails loudly, naming what changed.
   */
  sharedTravelers: SharedTravelersWatch;
}

interface TestFixtures {
  /** A traveler of this journey's own, fresh: nothing another journey does reaches them. */
  traveler: TestTraveler;
  /** Another fresh traveler at each call, for journeys with more than one traveler. */
  newTraveler: () => Promise<TestTraveler>;
  /** Fails the journey when a shared traveler changed while it ran (automatic). */
  sharedTravelersUnchanged: void;
  /** Signs `page` in with the identity sign-in form's requests and opens `returnTo` (default `/`). */
  signIn: (options?: { page?: Page; returnTo?: string; traveler?: TestTraveler }) => Promise<void>;
  /**
   * Where `signedInPage` opens once signed in (default `/`, the start page). A file whose journeys each
   * open their own first page sets `test.use({ signedInLanding: null })`: the page is then signed in and
   * still blank, and the app loads once, on the journey's own first page.
   */
  signedInLanding: string | null;
  /** A page already signed in as the journey's own traveler, on `signedInLanding`. */
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

/**
 * Signs the page's browser context in with the same requests the browser makes through the identity
 * stand-in's sign-in page (e2e/sign-in.spec.ts proves that page itself): the app's sign-in link, the
 * identity form posted, and the redirects back to the app's callback. The page's requests share the
 * context's cookies, so the session and the identity session it leaves are the browser's own.
 */
async function signInThroughRequests(page: Page, traveler: TestTraveler, returnTo: string): Promise<void> {
  const signInPage = await page.request.get(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  expect(signInPage.ok(), 'the identity sign-in page answers').toBe(true);
  const form = /<form method="post" action="([^"]+)" novalidate>/.exec(await signInPage.text());
  expect(form, `the identity sign-in form at ${signInPage.url()}`).not.toBeNull();
  const action = new URL(form![1]!.replaceAll('&amp;', '&'), signInPage.url());
  const landed = await page.request.post(action.href, {
    form: { email: traveler.email, password: traveler.password },
  });
  expect({ status: landed.status(), url: landed.url() }, `${traveler.email} signs in and comes back`).toEqual(
    {
      status: 200,
      url: new URL(returnTo, APP_ORIGIN).href,
    },
  );
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  travelerSource: [
    // workerIndex is unique in the run: a worker that replaces a failed one gets a new index.
    async ({ admin }, use, workerInfo) => {
      let handedOut = 0;
      await use(async () => {
        const traveler = journeyTraveler(workerInfo.workerIndex, handedOut++);
        // Created before the journey signs in, reading the app in English (their generated locale varies);
        // a journey in another language sets it itself.
        await ensureTraveler(admin, traveler, { locale: 'en-GB' });
        return traveler;
      });
    },
    { scope: 'worker' },
  ],

  traveler: async ({ travelerSource }, use) => use(await travelerSource()),

  newTraveler: async ({ travelerSource }, use) => use(travelerSource),

  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from it.
  sharedTravelerList: [async ({}, use) => use(SHARED_TRAVELERS), { scope: 'worker' }],

  sharedTravelers: [
    async ({ admin, sharedTravelerList }, use) => {
      const watch = await SharedTravelersWatch.start(admin, sharedTravelerList);
      await use(watch);
      // What changed after the last journey's own check: something it started that landed later.
      const changes = await watch.changes();
      if (changes.length > 0) {
        throw new Error(
          `The shared travelers changed after this worker's last journey:\n${changes.join('\n')}\n${SHARED_RULE}`,
        );
      }
    },
    { scope: 'worker', auto: true },
  ],

  sharedTravelersUnchanged: [
    async ({ sharedTravelers }, use) => {
      await use();
      const changes = await sharedTravelers.changes();
      if (changes.length > 0) {
        throw new Error(
          `This journey, or one running beside it, changed a shared traveler:\n${changes.join('\n')}\n${SHARED_RULE}`,
        );
      }
    },
    { auto: true },
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

  // A stack-wide journey puts the faults it set back. DELETE /admin/faults clears every traveler's faults
  // too, so it is never sent after a journey that runs beside others: it would take away the demo lever a
  // journey in another worker had just pulled for its own traveler (whose faults end with the journey's
  // traveler, used by nobody after it).
  clearFaultsAfterTest: [
    async ({ admin }, use, testInfo) => {
      await use();
      if (testInfo.tags.includes(STACK_WIDE)) {
        await admin.delete('faults');
        return;
      }
      const everyone = await admin.get<Record<string, unknown>>('faults');
      const set = Object.entries(everyone).filter(
        ([, value]) => value !== false && value !== null && value !== 0,
      );
      expect(
        Object.fromEntries(set),
        `a journey without the ${STACK_WIDE} tag set faults every traveler meets: it runs beside other journeys, so it sets its own traveler's faults (PUT /admin/travelers/:id/faults) or carries the tag`,
      ).toEqual({});
    },
    { auto: true },
  ],

  signIn: async ({ page, traveler }, use) => {
    await use(async (options = {}) => {
      const target = options.page ?? page;
      const returnTo = options.returnTo ?? '/';
      await signInThroughRequests(target, options.traveler ?? traveler, returnTo);
      await target.goto(returnTo);
      await demoControlsInPlace(target);
    });
  },

  signedInLanding: ['/', { option: true }],

  signedInPage: async ({ page, traveler, signIn, signedInLanding }, use) => {
    if (signedInLanding === null) await signInThroughRequests(page, traveler, '/');
    else await signIn({ returnTo: signedInLanding });
    await use(page);
  },
});
