import type { Page } from '@playwright/test';
import { expect, submitIdentitySignIn, test } from './fixtures.ts';
import { fillDate, isoDateFromToday } from './support/dates.ts';
import { expectInApp, expectOnIdentityPlatform } from './support/page-location.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

function offers(page: Page) {
  return page.getByRole('list', { name: 'Flight offers' }).getByRole('article');
}

/**
 * Opens the folded search form and types another date, ready to search: returns the search, which waits
 * for the service's answer, whatever it is (a search started while this one is still on its way replaces
 * it, and the app cancels it, sometimes before it is sent).
 */
async function searchReadyOnAnotherDate(page: Page, inDays: number): Promise<() => Promise<void>> {
  const date = isoDateFromToday(inDays);
  // After a search the form is folded into one line: Edit search opens it.
  await page.getByRole('button', { name: 'Edit search' }).click();
  const form = page.getByRole('form', { name: 'Search flights' });
  await fillDate(form.getByRole('group', { name: 'Date', exact: true }), date);
  return async () => {
    const answered = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/flights/search' &&
        (response.request().postData() ?? '').includes(date),
    );
    await form.getByRole('button', { name: 'Search flights' }).click();
    await answered;
  };
}

/** Shows results for one search, then asks for another date and waits for the service's answer. */
async function searchAgainOnAnotherDate(page: Page, inDays: number): Promise<void> {
  const search = await searchReadyOnAnotherDate(page, inDays);
  await search();
}

async function secondsLeft(page: Page): Promise<number> {
  const text = (await page.getByText(/Trying again in \d+ s/).textContent()) ?? '';
  return Number(/(\d+) s/.exec(text)?.[1]);
}

test.describe('errors the traveler recovers from', () => {
  test('a session that ended mid-use goes through sign-in and back to the same page', async ({
    signedInPage: page,
    context,
    traveler,
  }) => {
    await page.goto('/bookings?status=confirmed');
    await expect(page.getByRole('list', { name: 'Bookings' }).getByRole('article').first()).toBeVisible();

    // Both sessions are gone (the BFF's and the identity platform's), as after a long absence. The
    // app may notice on its own (its live stream reconnecting) before the traveler's next click does.
    await context.clearCookies();
    await page
      .getByRole('group', { name: 'Status' })
      .getByRole('checkbox', { name: 'Pending' })
      .click({ timeout: 5_000 })
      .catch(() => undefined);

    // Where the page is, read from its document (e2e/support/page-location.ts).
    await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
    await expectOnIdentityPlatform(page);
    await submitIdentitySignIn(page, traveler);
    await expectInApp(page, /^\/bookings\?status=confirmed((%2C|,)pending)?$/);
    await expect(page.getByRole('button', { name: /account menu/ })).toBeVisible();
  });

  test('a rate limit shows a countdown, then the search retries on its own', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    await page.goto(`/flights?trip=one-way&leg=LHR.CDG.${isoDateFromToday(24)}&adults=1&cabin=economy`);
    await expect(offers(page).first()).toBeVisible();
    // The traveler's own quota: journeys running beside this one keep theirs.
    await admin.put(`travelers/${traveler.id}/faults`, { rateLimitMax: 1, rateLimitWindowSeconds: 20 });

    // Two searches in the window, one after the other: the second is over a quota of one.
    // The countdown is what is left of that window; 20 s leaves it room to be seen counting down even
    // when the second search reaches the travel API late in the window on a loaded machine.
    await searchAgainOnAnotherDate(page, 26);
    await searchAgainOnAnotherDate(page, 27);
    const notice = page.getByRole('alert').filter({ hasText: 'Too many requests in a short time' });
    await expect(notice).toBeVisible();
    await expect(notice.getByText(/Trying again in \d+ s/)).toBeVisible();
    const first = await secondsLeft(page);
    await expect.poll(() => secondsLeft(page)).toBeLessThan(first);
    await expect(notice.getByRole('button', { name: 'Try again' })).toBeDisabled();
    await admin.put(`travelers/${traveler.id}/faults`, { rateLimitMax: null, rateLimitWindowSeconds: null });

    await expect(offers(page).first()).toBeVisible({ timeout: 30_000 });
    await expect(notice).toBeHidden();
  });

  test('while the provider is down the search waits, and it shows flights once the provider is back', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    await page.goto(`/flights?trip=one-way&leg=FRA.MAD.${isoDateFromToday(22)}&adults=1&cabin=economy`);
    await expect(offers(page).first()).toBeVisible();
    // The form is filled before the outage starts: its six seconds are the search's, not the typing's
    // (on a loaded machine, opening the form and typing a date took longer than the outage).
    const search = await searchReadyOnAnotherDate(page, 23);
    // The provider is down for this traveler alone: journeys running beside this one still find flights.
    await admin.put(`travelers/${traveler.id}/faults`, { providerDown: true, durationSeconds: 6 });
    await search();
    const notice = page.getByRole('alert').filter({ hasText: 'The flight provider is not answering' });
    await expect(notice).toBeVisible();
    // The wait is what is left of the provider's outage (6 s at most here), not a fixed 30 s.
    await expect(notice.getByText(/Trying again in [1-6] s/)).toBeVisible();

    await expect(offers(page).first()).toBeVisible({ timeout: 60_000 });
    await expect(notice).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`leg=FRA\\.MAD\\.${isoDateFromToday(23)}`));
  });
});
