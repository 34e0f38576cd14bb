import { expect, type Locator, type Page } from '@playwright/test';
import { fillDate, isoDateFromToday } from './dates.ts';
import { demoControlsInPlace } from './demo-controls.ts';

export interface StaySearchInput {
  city: string;
  /** Search one of the city's hotels by name (the direct-property destination) instead of the city. */
  hotel?: boolean;
  checkInInDays: number;
  nights: number;
}

/** The words of the stay search form a journey finds its fields by: English unless a journey reads another language. */
export interface StaySearchWords {
  form: string;
  destination: string;
  /** What a city's entry of the destination list says after the city's name ("City · FR"). */
  city: string;
  checkIn: string;
  checkOut: string;
}

export const ENGLISH_STAY_SEARCH: StaySearchWords = {
  form: 'Search stays',
  destination: 'Destination',
  city: 'City',
  checkIn: 'Check-in',
  checkOut: 'Check-out',
};

export function staySearchForm(page: Page, words: StaySearchWords = ENGLISH_STAY_SEARCH): Locator {
  return page.getByRole('form', { name: words.form });
}

export function stayCards(page: Page): Locator {
  return page.getByRole('list', { name: 'Stays' }).getByRole('article');
}

export function rateCards(page: Page): Locator {
  return page.getByRole('list', { name: 'Rates' }).getByRole('article');
}

/** Fills the stay search form on /stays; the caller submits, so it can watch what happens next. */
export async function fillStaySearch(
  page: Page,
  input: StaySearchInput,
  words: StaySearchWords = ENGLISH_STAY_SEARCH,
): Promise<Locator> {
  await page.goto('/stays');
  await demoControlsInPlace(page);
  const form = staySearchForm(page, words);
  const destination = form.getByRole('combobox', { name: words.destination });
  await destination.fill(input.city);
  await page
    .getByRole('option', { name: new RegExp(`^${input.city}.*${words.city}`) })
    .first()
    .click();
  await expect(destination).toHaveValue(new RegExp(input.city));
  await fillDate(
    form.getByRole('group', { name: words.checkIn, exact: true }),
    isoDateFromToday(input.checkInInDays),
  );
  await fillDate(
    form.getByRole('group', { name: words.checkOut, exact: true }),
    isoDateFromToday(input.checkInInDays + input.nights),
  );
  return form.getByRole('button', { name: words.form });
}

/** Runs a stay search and waits until every hotel it found has a price or a reason why not. */
export async function searchStays(page: Page, input: StaySearchInput): Promise<void> {
  await (await fillStaySearch(page, input)).click();
  await expect(stayCards(page).first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
}
