import type { Translate } from '../../i18n/use-t.ts';

/** 3 March 2027, 3 de marzo de 2027: a date as the form's messages write it, in `locale`. */
export const dateInWords = (isoDate: string, locale: string): string =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString(locale, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });

/** The words the problems are written in: the active language's messages and the traveler's locale. */
export interface ProblemWords {
  t: Translate;
  locale: string;
}
