import { expect, type Locator, type Page } from '@playwright/test';
import { isoDateFromToday } from './dates.ts';

export interface StaySearchInput {
  city: string;
  /** Search one of the city's hotels by name (the direct-property destination) instead of the city. */
  hotel?: boolean;
  checkInInDays: number;
  nights: number;
}

export function staySearchForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Search stays' });
}

export function stayCards(page: Page): Locator {
  return page.getByRole('list', { name: 'Stays' }).getByRole('article');
}

export function rateCards(page: Page): Locator {
  return page.getByRole('list', { name: 'Rates' }).getByRole('article');
}

/** Fills the stay search form on /stays; the caller submits, so it can watch what happens next. */
export async function fillStaySearch(page: Page, input: StaySearchInput): Promise<Locator> {
  await page.goto('/stays');
  const form = staySearchForm(page);
  const destination = form.getByRole('combobox', { name: 'Destination' });
  await destination.fill(input.city);
  await page
    .getByRole('option', { name: new RegExp(`^${input.city}.*City`) })
    .first()
    .click();
  await expect(destination).toHaveValue(new RegExp(input.city));
  await form.getByLabel('Check-in').fill(isoDateFromToday(input.checkInInDays));
  await form.getByLabel('Check-out').fill(isoDateFromToday(input.checkInInDays + input.nights));
  return form.getByRole('button', { name: 'Search stays' });
}

/** Runs a stay search and waits until every hotel it found has a price or a reason why not. */
export async function searchStays(page: Page, input: StaySearchInput): Promise<void> {
  await (await fillStaySearch(page, input)).click();
  await expect(stayCards(page).first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Stays' })).toHaveAttribute('aria-busy', 'false');
}
