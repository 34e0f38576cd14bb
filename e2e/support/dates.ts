/** Typing a date as a traveler does: shared with the screenshots (scripts/). */
export { fillDate } from '../../scripts/fill-date.ts';

/** `YYYY-MM-DD` of today plus `days`, in the browser's (and the machine's) time zone. */
export function isoDateFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}
