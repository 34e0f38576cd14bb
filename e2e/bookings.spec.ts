import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { expectOnFirstScreen } from './support/first-screen.ts';
import { expectOnIdentityPlatform } from './support/page-location.ts';
import { PHONE } from './support/tags.ts';
import { JORDAN } from './support/test-travelers.ts';
import { wordsOfProfile, type Words } from './support/words.ts';

const PAGE_SIZE = 20;

function bookingCards(page: Page, words: Words) {
  return page.getByRole('list', { name: words.bookings }).getByRole('article');
}

async function totalShown(page: Page, words: Words): Promise<number> {
  const heading = page.getByText(words.bookingsCount);
  await expect(heading).toBeVisible();
  return Number((await heading.textContent())?.replace(/\D/g, ''));
}

/**
 * Chooses one of the "when" radios and returns the total the list then shows: the total of the answer to
 * that choice's request, once the heading shows it. (Reading the heading as soon as the list is no longer
 * busy could read the previous choice's total: the list keeps the previous page on screen until the new
 * one answers, and is not yet busy in the instant after the click.)
 */
async function chooseWhen(page: Page, words: Words, radio: string, when: 'past' | 'all'): Promise<number> {
  const answer = page.waitForResponse((response) => {
    const { pathname, searchParams } = new URL(response.url());
    const asked = searchParams.has('endBefore') ? 'past' : searchParams.has('endFrom') ? 'upcoming' : 'all';
    return pathname === '/api/bookings' && response.request().method() === 'GET' && asked === when;
  });
  await page.getByRole('radio', { name: radio }).click();
  await expect(page).toHaveURL(new RegExp(`when=${when}`));
  const { meta } = (await (await answer).json()) as { meta: { totalCount: number } };
  await expect.poll(() => totalShown(page, words)).toBe(meta.totalCount);
  return meta.totalCount;
}

/**
 * On a phone the filters are a sheet over the list, opened by a button; a wide screen shows them in a
 * column beside it. Returns where the filters are and how to close them again (nothing to close on a
 * wide screen).
 */
async function openFilters(page: Page, words: Words): Promise<{ close: () => Promise<void> }> {
  if ((page.viewportSize()?.width ?? 0) >= 640) return { close: async () => {} };
  await page.getByRole('button', { name: words.filters }).click();
  const sheet = page.getByRole('dialog', { name: words.filters });
  await expect(sheet).toBeVisible();
  return {
    close: async () => {
      await sheet.getByRole('button', { name: words.showBookings }).click();
      await expect(sheet).toBeHidden();
    },
  };
}

/** Checkboxes of the filters drive the URL, so they read checked once the navigation has happened. */
async function toggle(page: Page, group: string, name: string): Promise<void> {
  const box = page.getByRole('group', { name: group }).getByRole('checkbox', { name });
  await box.click();
  await expect(box).toBeChecked();
}

test.describe('bookings', () => {
  test('a traveler with a long history pages through every booking to the end, and the page survives a reload', async ({
    page,
    signIn,
  }) => {
    await signIn({ traveler: JORDAN, returnTo: '/bookings?when=all' });
    const words = await wordsOfProfile(page);
    const total = await totalShown(page, words);
    expect(total).toBeGreaterThanOrEqual(120);
    const pages = Math.ceil(total / PAGE_SIZE);
    const next = page
      .getByRole('navigation', { name: words.pagesOfBookings })
      .getByRole('button', { name: words.nextPage });

    for (let index = 1; index < pages; index += 1) {
      await expect(bookingCards(page, words)).toHaveCount(PAGE_SIZE);
      await next.click();
      await expect(page).toHaveURL(new RegExp(`offset=${index * PAGE_SIZE}`));
      await expect(page.getByText(`${words.showing} ${index * PAGE_SIZE + 1}–`)).toBeVisible();
      // The new page has arrived once its heading takes focus and it scrolls to its top; a click before
      // that could land where Next was before the scroll.
      await expect(
        page.getByRole('heading', {
          level: 2,
          name: new RegExp(`^${words.bookings} ${index * PAGE_SIZE + 1}–`),
        }),
      ).toBeFocused();
    }
    const lastOffset = (pages - 1) * PAGE_SIZE;
    await expect(
      page.getByText(`${words.showing} ${lastOffset + 1}–${total} ${words.of} ${total}`),
    ).toBeVisible();
    await expect(bookingCards(page, words)).toHaveCount(total - lastOffset);
    await expect(next).toBeDisabled();

    await page.reload();
    await expect(
      page.getByText(`${words.showing} ${lastOffset + 1}–${total} ${words.of} ${total}`),
    ).toBeVisible();
    await expect(next).toBeDisabled();
    await expect(page.getByRole('button', { name: words.previousPage })).toBeEnabled();
  });

  test(
    'paging takes the traveler to the top of the new page, announced, and focus never falls to the page',
    { tag: PHONE },
    async ({ page, signIn }) => {
      await signIn({ traveler: JORDAN, returnTo: '/bookings?when=all' });
      const words = await wordsOfProfile(page);
      const total = await totalShown(page, words);
      const next = page.getByRole('button', { name: words.nextPage });
      await next.scrollIntoViewIfNeeded();
      await next.click();
      const heading = page.getByRole('heading', {
        level: 2,
        name: `${words.bookings} 21–40 ${words.of} ${total}`,
      });
      await expect(heading).toBeFocused();
      await expect(bookingCards(page, words).first()).toBeInViewport();

      // To the last page: the Next button turns disabled under the traveler's focus.
      const lastOffset = Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE;
      await page.goto(`/bookings?when=all&offset=${lastOffset - PAGE_SIZE}`);
      await demoControlsInPlace(page);
      await next.click();
      await expect(next).toBeDisabled();
      await expect(
        page.getByRole('heading', { level: 2, name: new RegExp(`^${words.bookings} ${lastOffset + 1}–`) }),
      ).toBeFocused();
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
    },
  );

  test('the list leads with upcoming travel; past travel and one kind of travel are a click away', async ({
    page,
    signIn,
  }) => {
    await signIn({ traveler: JORDAN, returnTo: '/bookings' });
    const words = await wordsOfProfile(page);
    await expect(page.getByRole('radio', { name: words.bookingsUpcoming })).toBeChecked();
    const upcoming = await totalShown(page, words);
    const past = await chooseWhen(page, words, words.bookingsPast, 'past');
    const all = await chooseWhen(page, words, words.bookingsAll, 'all');
    expect(all).toBe(upcoming + past);
    await page.getByRole('radio', { name: words.business }).click();
    await expect(page).toHaveURL(/travel=business/);
    await expect(page.getByRole('list', { name: words.bookings })).toHaveAttribute('aria-busy', 'false');
    for (const card of await bookingCards(page, words).all())
      await expect(card).toContainText(words.business);
  });

  test(
    'filters narrow the bookings and the same URL brings them back',
    { tag: PHONE },
    async ({ page, signIn, context }) => {
      await signIn({ traveler: JORDAN, returnTo: '/bookings' });
      const words = await wordsOfProfile(page);
      const everything = await totalShown(page, words);
      // The bookings lead: on a phone the filters wait behind a button, so the first booking is on screen.
      await expectOnFirstScreen(bookingCards(page, words).first());

      const filters = await openFilters(page, words);
      await toggle(page, words.status, words.confirmed);
      await toggle(page, words.kind, words.flight);
      await filters.close();
      await expect(page).toHaveURL(/status=confirmed/);
      await expect(page).toHaveURL(/vertical=flight/);
      await expect(page.getByRole('list', { name: words.bookings })).toHaveAttribute('aria-busy', 'false');
      const filtered = await totalShown(page, words);
      expect(filtered).toBeGreaterThan(0);
      expect(filtered).toBeLessThan(everything);
      for (const card of await bookingCards(page, words).all()) {
        await expect(card).toContainText(new RegExp(`^${words.flight} ·`));
        await expect(card).toContainText(words.confirmed);
      }

      const again = await context.newPage();
      await again.goto(page.url());
      await openFilters(again, words);
      await expect(
        again.getByRole('group', { name: words.status }).getByRole('checkbox', { name: words.confirmed }),
      ).toBeChecked();
      await expect(
        again.getByRole('group', { name: words.kind }).getByRole('checkbox', { name: words.flight }),
      ).toBeChecked();
      expect(await totalShown(again, words)).toBe(filtered);
    },
  );

  test('a filter ticks on the click while the session is asked again beside it, and an ended session still leads to sign-in', async ({
    page,
    signIn,
    context,
  }) => {
    // The app's clock is the journey's to move: the session answer it holds grows stale without waiting.
    await page.clock.install();
    await signIn({ returnTo: '/bookings' });
    const words = await wordsOfProfile(page);

    await expect(page.getByRole('group', { name: words.status })).toBeVisible();
    // The session's next answer is held until the journey lets it go.
    const asked = Promise.withResolvers<void>();
    const answer = Promise.withResolvers<void>();
    await page.route('**/api/session', async (route) => {
      asked.resolve();
      await answer.promise;
      await route.continue();
    });
    await page.clock.fastForward('05:00');

    const listAsked = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/bookings' && request.url().includes('confirmed'),
    );
    const box = page
      .getByRole('group', { name: words.status })
      .getByRole('checkbox', { name: words.confirmed });
    await expect(box).not.toBeChecked();
    await box.click();
    await asked.promise;
    // Ticked, in the URL and the list asked for, all while the session's answer is still held.
    await expect(box).toBeChecked();
    await expect(page).toHaveURL(/status=confirmed/);
    await listAsked;

    // The session ended meanwhile (both the app's and the identity platform's): its answer leads to sign-in.
    await context.clearCookies();
    await page.route('**/api/bookings**', (route) => route.abort());
    answer.resolve();
    await expectOnIdentityPlatform(page);
  });
});
