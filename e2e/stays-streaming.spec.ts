import { expect, test } from './fixtures.ts';
import { fillStaySearch, rateCards, searchStays, stayCards } from './support/stays.ts';
import { pageClock, streamOrder, watchFirstAppearance } from './support/stream-timing.ts';
import { STACK_WIDE } from './support/tags.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

// Every streamed event is held back a little (the latencyMs fault), so "before the stream ended" is
// a margin of seconds rather than a race with the browser's main thread.
const PACE = { latencyMs: 250 };

test.describe('streamed stays', { tag: STACK_WIDE }, () => {
  test('hotel cards appear while the search is still streaming', async ({ signedInPage: page, admin }) => {
    const search = await fillStaySearch(page, { city: 'Paris', checkInInDays: 31, nights: 2 });
    await admin.put('faults', PACE);
    await watchFirstAppearance(page, 'hotel card', 'ol[aria-label="Stays"] article');
    const since = await pageClock(page);

    await search.click();
    await expect(stayCards(page).first()).toBeVisible();
    const order = await streamOrder(page, 'hotel card', '/api/stays/priced-search', since);
    expect(order.busyWhenFirstShown, 'the list says it is still loading').toBe('true');
    expect(order.firstShownAt).toBeGreaterThanOrEqual(order.streamStartedAt);
    expect(order.firstShownAt, 'the first card is shown before the stream ends').toBeLessThan(
      order.streamEndedAt,
    );
  });

  test('a hotel’s rates appear one by one while its fares stream', async ({ signedInPage: page, admin }) => {
    await searchStays(page, { city: 'London', checkInInDays: 41, nights: 3 });
    await admin.put('faults', PACE);
    await watchFirstAppearance(page, 'rate', 'ol[aria-label="Rates"] article');
    const since = await pageClock(page);
    await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();

    await expect(rateCards(page).first()).toBeVisible();
    const order = await streamOrder(page, 'rate', '/api/stays/fares', since);
    expect(order.busyWhenFirstShown, 'the list says it is still loading').toBe('true');
    expect(order.firstShownAt, 'the first rate is shown before the stream ends').toBeLessThan(
      order.streamEndedAt,
    );
    await expect(page.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
  });

  test('a provider failure while pricing a hotel counts down and retries once the provider is back', async ({
    signedInPage: page,
    admin,
  }) => {
    await searchStays(page, { city: 'Vienna', checkInInDays: 33, nights: 2 });
    await admin.put('faults', { providerErrorMidStream: true });
    await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();

    const failure = page
      .getByRole('alert')
      .filter({ hasText: 'The hotel provider could not price this stay' });
    await expect(failure).toBeVisible();
    await expect(failure).toContainText(/Trying again in \d+ s/);
    await admin.delete('faults');

    await expect(failure).toBeHidden({ timeout: 30_000 });
    await expect(page.getByRole('list', { name: 'Rates' })).toHaveAttribute('aria-busy', 'false');
    await expect(rateCards(page).first()).toContainText('per night');
  });

  test('an expired offer says prices changed, and the traveler chooses again from a fresh search', async ({
    signedInPage: page,
    admin,
  }) => {
    await searchStays(page, { city: 'Amsterdam', checkInInDays: 36, nights: 2 });
    await admin.put('faults', { offersExpired: true });
    await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();

    const expired = page.getByRole('alert').filter({ hasText: 'Prices changed, choose again' });
    await expect(expired).toBeVisible();
    await admin.delete('faults');
    await expired.getByRole('button', { name: 'Back to the search results' }).click();

    await expect(page).toHaveURL(/\/stays\?/);
    await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
    await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();
    await expect(rateCards(page).first()).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
