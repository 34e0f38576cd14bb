import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/**
 * Types `isoDate` (YYYY-MM-DD) into a DateField, given its group (`getByRole('group', { name })`), segment by
 * segment as a traveler would, year and month first so the day is never cut to a shorter month.
 */
export async function typeDate(group: HTMLElement, isoDate: string): Promise<void> {
  const [year = '', month = '', day = ''] = isoDate.split('-');
  const segments = within(group).getAllByRole('spinbutton');
  const segment = (type: string) => {
    const found = segments.find((element) => element.dataset.type === type);
    if (!found) throw new Error(`The date field has no ${type} segment.`);
    return found;
  };
  for (const [type, digits] of [
    ['year', year],
    ['month', month],
    ['day', day],
  ] as const) {
    await userEvent.click(segment(type));
    await userEvent.keyboard(digits);
  }
}
