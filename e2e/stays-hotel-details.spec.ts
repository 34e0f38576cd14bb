import { expect, test } from './fixtures.ts';
import { rateCards, searchStays, stayCards } from './support/stays.ts';

// The journey opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

/** A price in US dollars as en-GB writes it: "US$1,234.50". */
const DOLLARS = /US\$[\d,]+\.\d{2}/;
/** The hotel's own euros under the traveler's dollars. */
const HOTEL_EUROS = /In the hotel’s currency: €[\d,]+\.\d{2} per night/;

test('a traveler paying in dollars sees Paris hotels in dollars with their euros beside, and a hotel page with its picture, address, stars, guest score and amenities', async ({
  signedInPage: page,
}) => {
  const saved = await page.request.patch('/api/profile', {
    headers: { 'x-requested-with': 'wayfare' },
    data: { currency: 'USD' },
  });
  expect(saved.ok()).toBe(true);

  await searchStays(page, { city: 'Paris', checkInInDays: 38, nights: 2 });
  const priced = stayCards(page).filter({ hasText: 'per night' }).first();
  await expect(priced).toContainText(DOLLARS);
  await expect(priced).toContainText(HOTEL_EUROS);
  const name = (await priced.getByRole('heading').textContent()) ?? '';
  await expect(priced.getByRole('img', { name: `Front of ${name}` })).toBeVisible();

  await priced.getByRole('link').click();
  const header = page.locator('header').filter({ has: page.getByRole('heading', { level: 1, name }) });
  await expect(header.getByRole('img', { name: `Front of ${name}` })).toBeVisible();
  await expect(header.getByRole('img', { name: /^\d-star hotel$/ })).toBeVisible();
  // An address as France writes one, the number first and a French street name.
  await expect(header).toContainText(/Address: \d+ (rue|avenue|boulevard|place) .+, Paris/);
  await expect(header).toContainText(/Guest score: \d+\.\d \/ 10/);
  await expect(header.getByRole('list', { name: 'Amenities' }).getByRole('listitem').first()).toBeVisible();

  const rate = rateCards(page).first();
  await expect(rate).toContainText(DOLLARS);
  await expect(rate).toContainText(HOTEL_EUROS);
});
