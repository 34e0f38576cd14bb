import { expect, test } from './fixtures.ts';
import { fillDate, isoDateFromToday } from './support/dates.ts';

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

test('a traveler who types airport codes and presses Enter and Search gets those airports', async ({
  signedInPage: page,
}) => {
  await page.goto('/flights');
  const form = page.getByRole('form', { name: 'Search flights' });
  const from = form.getByRole('combobox', { name: 'From' }).first();
  await expect(from).toHaveValue(/[A-Z]{3}/);
  await form.getByRole('radio', { name: 'One-way' }).check();

  // Record whether "No airport matches." ever shows while a real code is being looked up.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { emptyTexts: string[] }).emptyTexts = seen;
    new MutationObserver(() => {
      const empty = document.querySelector('.combo-empty');
      if (empty?.textContent) seen.push(empty.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  await from.fill('');
  // Enter at once, as a traveler who knows the code does, before "LHR" has been searched (the list can
  // still show what "LH" found): the field chooses LHR when its search answers.
  await from.pressSequentially('LHR');
  await from.press('Enter');
  await expect(from).toHaveValue(/\(LHR\)/);

  // Typed and left at once, likewise.
  const to = form.getByRole('combobox', { name: 'To' }).first();
  await to.pressSequentially('JFK');
  // The list of airports is still open (it hides the rest of the form from the accessibility tree, so the
  // field is found by its label): moving to the date closes it, as a click there does.
  await fillDate(form.getByLabel('Date', { exact: true }), isoDateFromToday(30));
  await expect(to).toHaveValue(/\(JFK\)/);
  await form.getByRole('button', { name: 'Search flights' }).click();

  await expect(page.getByRole('heading', { name: 'Flights LHR → JFK' })).toBeVisible();
  await expect(page.getByText('Choose where this flight goes.')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first()).toBeVisible();
  const emptyTexts = await page.evaluate(() => (window as unknown as { emptyTexts: string[] }).emptyTexts);
  expect(emptyTexts).not.toContain('No airport matches.');
});
