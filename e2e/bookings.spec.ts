import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { PHONE } from './support/tags.ts';
import { JORDAN } from './support/test-travelers.ts';

const PAGE_SIZE = 20;

function bookingCards(page: Page) {
  return page.getByRole('list', { name: 'Bookings' }).getByRole('article');
}

async function totalShown(page: Page): Promise<number> {
  const heading = page.getByText(/^\d[\d,]* bookings?$/);
  await expect(heading).toBeVisible();
  return Number((await heading.textContent())?.replace(/\D/g, ''));
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
    const total = await totalShown(page);
    expect(total).toBeGreaterThanOrEqual(120);
    const pages = Math.ceil(total / PAGE_SIZE);
    const next = page
      .getByRole('navigation', { name: 'Pages of bookings' })
      .getByRole('button', { name: 'Next page' });

    for (let index = 1; index < pages; index += 1) {
      await expect(bookingCards(page)).toHaveCount(PAGE_SIZE);
      await next.click();
      await expect(page).toHaveURL(new RegExp(`offset=${index * PAGE_SIZE}`));
      await expect(page.getByText(`Showing ${index * PAGE_SIZE + 1}–`)).toBeVisible();
    }
    const lastOffset = (pages - 1) * PAGE_SIZE;
    await expect(page.getByText(`Showing ${lastOffset + 1}–${total} of ${total}`)).toBeVisible();
    await expect(bookingCards(page)).toHaveCount(total - lastOffset);
    await expect(next).toBeDisabled();

    await page.reload();
    await expect(page.getByText(`Showing ${lastOffset + 1}–${total} of ${total}`)).toBeVisible();
    await expect(next).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Previous page' })).toBeEnabled();
  });

  test(
    'paging takes the traveler to the top of the new page, announced, and focus never falls to the page',
    { tag: PHONE },
    async ({ page, signIn }) => {
      await signIn({ traveler: JORDAN, returnTo: '/bookings?when=all' });
      const total = await totalShown(page);
      const next = page.getByRole('button', { name: 'Next page' });
      await next.scrollIntoViewIfNeeded();
      await next.click();
      const heading = page.getByRole('heading', { level: 2, name: `Bookings 21–40 of ${total}` });
      await expect(heading).toBeFocused();
      await expect(bookingCards(page).first()).toBeInViewport();

      // To the last page: the Next button turns disabled under the traveler's focus.
      const lastOffset = Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE;
      await page.goto(`/bookings?when=all&offset=${lastOffset - PAGE_SIZE}`);
      await next.click();
      await expect(next).toBeDisabled();
      await expect(
        page.getByRole('heading', { level: 2, name: new RegExp(`^Bookings ${lastOffset + 1}–`) }),
      ).toBeFocused();
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
    },
  );

  test('the list leads with upcoming travel; past travel and one kind of travel are a click away', async ({
    page,
    signIn,
  }) => {
    await signIn({ traveler: JORDAN, returnTo: '/bookings' });
    await expect(page.getByRole('radio', { name: 'Upcoming' })).toBeChecked();
    const upcoming = await totalShown(page);
    await page.getByRole('radio', { name: 'Past' }).click();
    await expect(page).toHaveURL(/when=past/);
    await expect(page.getByRole('list', { name: 'Bookings' })).toHaveAttribute('aria-busy', 'false');
    const past = await totalShown(page);
    await page.getByRole('radio', { name: 'All' }).click();
    await expect(page).toHaveURL(/when=all/);
    await expect(page.getByRole('list', { name: 'Bookings' })).toHaveAttribute('aria-busy', 'false');
    await expect.poll(() => totalShown(page)).toBe(upcoming + past);
    await page.getByRole('radio', { name: 'Business' }).click();
    await expect(page).toHaveURL(/travel=business/);
    await expect(page.getByRole('list', { name: 'Bookings' })).toHaveAttribute('aria-busy', 'false');
    for (const card of await bookingCards(page).all()) await expect(card).toContainText('Business');
  });

  test(
    'filters narrow the bookings and the same URL brings them back',
    { tag: PHONE },
    async ({ page, signIn, context }) => {
      await signIn({ traveler: JORDAN, returnTo: '/bookings' });
      const everything = await totalShown(page);

      await toggle(page, 'Status', 'Confirmed');
      await toggle(page, 'Kind', 'Flight');
      await expect(page).toHaveURL(/status=confirmed/);
      await expect(page).toHaveURL(/vertical=flight/);
      await expect(page.getByRole('list', { name: 'Bookings' })).toHaveAttribute('aria-busy', 'false');
      const filtered = await totalShown(page);
      expect(filtered).toBeGreaterThan(0);
      expect(filtered).toBeLessThan(everything);
      for (const card of await bookingCards(page).all()) {
        await expect(card).toContainText(/^Flight ·/);
        await expect(card).toContainText('Confirmed');
      }

      const again = await context.newPage();
      await again.goto(page.url());
      await expect(
        again.getByRole('group', { name: 'Status' }).getByRole('checkbox', { name: 'Confirmed' }),
      ).toBeChecked();
      await expect(
        again.getByRole('group', { name: 'Kind' }).getByRole('checkbox', { name: 'Flight' }),
      ).toBeChecked();
      expect(await totalShown(again)).toBe(filtered);
    },
  );
});
