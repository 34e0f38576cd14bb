import type { Locator } from '@playwright/test';

/**
 * Types `isoDate` (YYYY-MM-DD) into a date field (its group: `getByRole('group', { name: 'Date', exact: true })`)
 * as a traveler does, segment by segment whatever the locale's order; year and month go first so the day is
 * never cut to a shorter month.
 */
export async function fillDate(field: Locator, isoDate: string): Promise<void> {
  const [year = '', month = '', day = ''] = isoDate.split('-');
  for (const [type, digits] of [
    ['year', year],
    ['month', month],
    ['day', day],
  ] as const) {
    await field.locator(`[data-type="${type}"]`).pressSequentially(digits);
  }
}
