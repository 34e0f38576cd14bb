import ICAL from 'ical.js';
import { expect, test } from './fixtures.ts';

test.use({ signedInLanding: '/profile' });

/** The events of an iCalendar feed, as a calendar app's parser reads them. */
function feedEvents(text: string): ICAL.Component[] {
  return new ICAL.Component(ICAL.parse(text) as unknown[]).getAllSubcomponents('vevent');
}

test('the calendar feed turned on in the profile reads as a calendar, and a new address retires the old one', async ({
  signedInPage: page,
}) => {
  const feed = page.getByRole('region', { name: 'Calendar feed' });
  const address = feed.getByRole('textbox', { name: 'Calendar address' });

  await feed.getByRole('button', { name: 'Turn on calendar feed' }).click();
  await expect(
    feed.getByText('Calendar feed turned on. Add the address below to your calendar app.'),
  ).toBeFocused();
  const first = await address.inputValue();

  const answer = await page.request.get(first);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const events = feedEvents(await answer.text());
  expect(events.length).toBeGreaterThan(0);
  for (const event of events) {
    expect(event.getFirstProperty('dtstart')?.getParameter('tzid')).toBeTruthy();
    expect(String(event.getFirstPropertyValue('url'))).toMatch(/\/trips\/[^/]+\/segment\/[^/]+$/);
  }

  await feed.getByRole('button', { name: 'Get a new address' }).click();
  await expect(feed.getByText('New address made. The previous address no longer works.')).toBeFocused();
  const second = await address.inputValue();
  expect(second).not.toBe(first);
  expect((await page.request.get(first)).status()).toBe(404);
  expect((await page.request.get(second)).status()).toBe(200);
});
