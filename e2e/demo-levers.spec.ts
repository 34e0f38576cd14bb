import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { isoDateFromToday } from './support/dates.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { fillStaySearch, rateCards, searchStays, stayCards } from './support/stays.ts';

/**
 * The demo panel's levers act on the traveler who pulls them and on nobody else: one traveler pulls every
 * lever that once changed the whole travel API, while another, signed in beside them in a browser of
 * their own, searches, checks a price, books and reads their update banner as if nothing happened.
 */

/** The day both travelers look at flights. */
const FLIGHT_DAY = 250;

const flightsUrl = (days: number) =>
  `/flights?trip=one-way&leg=ZRH.LHR.${isoDateFromToday(days)}&adults=1&cabin=economy`;

/** Opens the first offer of the day's flights and goes to its checkout, where the price is checked. */
async function checkOutFirstOffer(page: Page, days: number): Promise<void> {
  await page.goto(flightsUrl(days));
  await demoControlsInPlace(page);
  const offer = page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first();
  await offer.getByText('Details and booking').press('Enter');
  await offer.getByRole('button', { name: /^Book/ }).click();
  await expect(page).toHaveURL(/\/checkout\//);
}

/** Pulls one lever of the demo panel and waits until the panel says it is done. */
async function pullLever(page: Page, lever: string): Promise<void> {
  const panel = page.getByRole('complementary', { name: 'Demo controls' });
  const toggle = panel.getByRole('button', { name: 'Demo controls' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await panel.getByRole('button', { name: lever, exact: true }).click();
  await expect(panel.getByRole('status')).toHaveText(`Done: ${lever.toLowerCase()}.`);
}

function updateBanner(page: Page) {
  return page.getByRole('complementary', { name: 'New version' });
}

/** Loads the page again and waits for its update check to be answered. */
async function reloadWithUpdateCheck(page: Page): Promise<void> {
  const checked = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/app/update-check',
  );
  await page.reload();
  expect((await checked).status()).toBe(200);
}

/**
 * The other traveler: a second traveler of the journey's own, signed in beside the one who pulls the
 * levers, in a browser context of their own.
 */
const bystanderTest = test.extend<{ other: Page }>({
  other: async ({ browser, signIn, newTraveler }, use, testInfo) => {
    // Two travelers sign in and go through their pages side by side: the journey waits for twice the
    // events of one, so it has the time of a slow journey (three times the default).
    testInfo.slow();
    const context = await browser.newContext();
    const other = await context.newPage();
    await signIn({ page: other, traveler: await newTraveler() });
    await use(other);
    await context.close();
  },
});

bystanderTest(
  'an update, a provider failure and a rate limit one traveler pulls leave another’s banner and searches alone',
  async ({ signedInPage: page, other }) => {
    // The app update: the banner appears for the traveler who announced it, and for nobody else.
    await pullLever(page, 'Announce a new version');
    await expect(updateBanner(page)).toContainText('A new version of Wayfare');
    // The provider failure: their next search finds the provider down.
    await pullLever(page, 'Make the providers fail');
    await page.goto(flightsUrl(FLIGHT_DAY + 1));
    await expect(
      page.getByRole('alert').filter({ hasText: 'The flight provider is not answering' }),
    ).toBeVisible();
    await pullLever(page, 'Hit the rate limit');

    await reloadWithUpdateCheck(other);
    await expect(updateBanner(other)).toHaveCount(0);
    await other.goto(flightsUrl(FLIGHT_DAY + 1));
    await expect(
      other.getByRole('list', { name: 'Flight offers' }).getByRole('article').first(),
    ).toBeVisible();
    // The stay destinations come from the hotel provider too: the form finds Lisbon among them.
    await fillStaySearch(other, { city: 'Lisbon', checkInInDays: FLIGHT_DAY, nights: 2 });
  },
);

bystanderTest(
  'a price change and expired offers one traveler pulls leave another’s price check, booking and rates alone',
  async ({ signedInPage: page, other }) => {
    // The price change: the traveler who pulled it finds a new price for the offer both look at.
    await pullLever(page, 'Change my next price check');
    await checkOutFirstOffer(page, FLIGHT_DAY);
    await expect(page.getByRole('heading', { name: 'The price has changed' })).toBeVisible();
    await pullLever(page, 'Expire stay offers');

    // The other traveler checks the same offer: the price it was quoted, and it books at that price.
    await checkOutFirstOffer(other, FLIGHT_DAY);
    await expect(other.getByText('price checked just now')).toBeVisible();
    await expect(other.getByRole('heading', { name: 'The price has changed' })).toHaveCount(0);
    await other.getByRole('button', { name: /^Book and pay/ }).click();
    await expect(other.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();

    // Their stay search's hotels still price their rooms.
    await searchStays(other, { city: 'Lisbon', checkInInDays: FLIGHT_DAY + 5, nights: 2 });
    await stayCards(other).filter({ hasText: 'per night' }).first().getByRole('link').click();
    await expect(other.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
    await expect(rateCards(other).first()).toBeVisible();
  },
);
