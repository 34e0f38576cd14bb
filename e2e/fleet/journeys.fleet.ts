import { expect, type Page, type Response } from '@playwright/test';
import { submitIdentitySignIn } from '../fixtures.ts';
import { test } from './fleet-test.ts';
import {
  builtTextAddresses,
  expectEachEncodedAsAccepted,
  recordTextEncodings,
} from '../support/compression.ts';
import { fillDate, isoDateFromToday } from '../support/dates.ts';
import { inboxCard, raiseDelay, recordToasts, toastsShown } from '../support/notifications.ts';
import { expectPageAt, withAnyQuery } from '../support/page-location.ts';
import { FLEET_IDENTITY_ORIGIN, FLEET_ORIGIN } from '../support/stack.ts';
import { rateCards, searchStays, stayCards } from '../support/stays.ts';
import { testTraveler } from '../support/test-travelers.ts';

/**
 * Journeys through the fleet's front: nginx terminating TLS with HTTP/2 before two BFF instances that
 * share Redis, with no sticky sessions. The front names the instance that answered each request
 * (X-Wayfare-Instance), so a journey can tell that both instances served it.
 */

const traveler = testTraveler(1);

async function signIn(page: Page, returnTo = '/'): Promise<void> {
  await page.goto(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  await submitIdentitySignIn(page, traveler);
  await expectPageAt(page, FLEET_ORIGIN, withAnyQuery(returnTo));
}

/** The instances that answered the page's API calls so far. */
function instancesOf(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('response', (response: Response) => {
    const instance = response.headers()['x-wayfare-instance'];
    if (instance && new URL(response.url()).pathname.startsWith('/api/')) seen.add(instance);
  });
  return seen;
}

/** Opens the inbox and waits until its notification stream is live; returns the instance serving it. */
async function openLiveInbox(page: Page): Promise<string> {
  const stream = page.waitForResponse((response) => response.url().includes('/api/notifications/stream?'));
  await page.goto('/inbox');
  const instance = (await stream).headers()['x-wayfare-instance'] ?? '';
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  return instance;
}

test.describe('through the TLS front of two instances', () => {
  test('a traveler signs in, finds flights and prices a stay over HTTP/2, served by both instances', async ({
    page,
  }) => {
    const instances = instancesOf(page);
    await signIn(page);
    const protocol = await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
    );
    expect(protocol).toBe('h2');

    await page.goto('/flights');
    const form = page.getByRole('form', { name: 'Search flights' });
    await expect(form.getByRole('combobox', { name: 'From' }).first()).toHaveValue(/[A-Z]{3}/);
    await form.getByRole('radio', { name: 'One-way' }).check();
    for (const [field, code] of [
      ['From', 'LHR'],
      ['To', 'JFK'],
    ] as const) {
      const airport = form.getByRole('combobox', { name: field });
      await airport.fill(code);
      await page
        .getByRole('option', { name: new RegExp(`\\b${code}\\b`) })
        .first()
        .click();
      await expect(airport).toHaveValue(new RegExp(code));
    }
    await fillDate(form.getByRole('group', { name: 'Date', exact: true }), isoDateFromToday(30));
    await form.getByRole('button', { name: 'Search flights' }).click();
    const offers = page.getByRole('list', { name: 'Flight offers' }).getByRole('article');
    await expect(offers.first()).toContainText('JFK');

    await searchStays(page, { city: 'London', checkInInDays: 40, nights: 3 });
    await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();
    await expect(page.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
    await expect(rateCards(page).first()).toContainText('total for 3 nights');

    expect([...instances].sort()).toHaveLength(2);
  });

  test('a notification raised while the traveler has the app open on both instances arrives once, with one toast', async ({
    browser,
    admin,
  }) => {
    const laptop = await (await browser.newContext()).newPage();
    const phone = await (await browser.newContext()).newPage();
    // Toasts leave by themselves: the toasts each device showed are counted, whether still there or gone.
    for (const page of [laptop, phone]) await recordToasts(page.context());
    await signIn(laptop);
    await signIn(phone);
    const laptopInstance = await openLiveInbox(laptop);
    let phoneInstance = await openLiveInbox(phone);
    // The front sends requests to the instances in turn, so where a page's stream lands depends on how many
    // requests came before it. A page load makes a fixed number of them: if it is even, every reload lands
    // the stream where it was, so every other retry first asks one more thing over the same connection.
    for (let attempt = 0; attempt < 6 && phoneInstance === laptopInstance; attempt += 1) {
      if (attempt % 2 === 0) await phone.evaluate(async () => (await fetch('/api/session')).text());
      phoneInstance = await openLiveInbox(phone);
    }
    expect(phoneInstance).not.toBe(laptopInstance);

    const raised = await raiseDelay(admin, traveler.id);
    for (const page of [laptop, phone]) await expect(inboxCard(page, raised.title)).toHaveCount(1);
    await expect.poll(() => toastsShown([laptop, phone], raised.title)).toBe(1);

    // A later notification came through the same streams: a duplicate of the first would be here by now.
    const later = await raiseDelay(admin, traveler.id, 'Later');
    for (const page of [laptop, phone]) {
      await expect(inboxCard(page, later.title)).toHaveCount(1);
      await expect(inboxCard(page, raised.title)).toHaveCount(1);
    }
    expect(await toastsShown([laptop, phone], raised.title)).toBe(1);
    await laptop.context().close();
    await phone.context().close();
  });

  test('signing out through the front ends the app and identity sessions on every instance', async ({
    page,
  }) => {
    await signIn(page, '/bookings');
    await page.getByRole('button', { name: /account menu/ }).click();
    const identityPages: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && new URL(frame.url()).origin === FLEET_IDENTITY_ORIGIN)
        identityPages.push(new URL(frame.url()).pathname);
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The identity platform's end-session page confirms by itself: one click signs out of both.
    await expectPageAt(page, FLEET_ORIGIN, '/');
    expect(identityPages.length).toBeGreaterThan(0);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true }).first()).toBeVisible();
    // Round robin sends these to both instances: neither knows the session any more.
    for (let call = 0; call < 4; call += 1) {
      const session = await page.request.get('/api/session');
      expect(await session.json()).toEqual({ authenticated: false });
    }
  });

  test('every text file of the build comes through the front as Brotli, gzip or as it is, as the browser accepts', async ({
    request,
  }) => {
    await expectEachEncodedAsAccepted(request, await builtTextAddresses());
  });

  test('a signed-in visit gets pages, scripts and styles in Brotli and the notification stream as it is', async ({
    page,
  }) => {
    const encodings = recordTextEncodings(page, FLEET_ORIGIN);
    await signIn(page);
    const stream = page.waitForResponse((response) => response.url().includes('/api/notifications/stream?'));
    // The stream's first events reach the page while it stays open: the front holds nothing back.
    await openLiveInbox(page);
    const streamHeaders = (await stream).headers();
    expect(streamHeaders['content-type']).toMatch(/^text\/event-stream/);
    expect(streamHeaders['content-encoding']).toBeUndefined();
    expect([...encodings.keys()]).toEqual(expect.arrayContaining(['/', '/inbox']));
    for (const [pathname, encoding] of encodings) expect(encoding, pathname).toBe('br');
  });
});
