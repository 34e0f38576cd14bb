const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

/**
 * The local day of a date or a local ISO time in words (`Tue 1 Dec`), as notification texts write a day:
 * never as a raw date.
 */
export function dayInWords(localIso: string): string {
  return DAY_FORMAT.format(new Date(`${localIso.slice(0, 10)}T00:00:00Z`)).replace(',', '');
}
