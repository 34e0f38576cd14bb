import { z } from 'zod';

/** A BCP 47 language tag (`en-GB`, `es-ES`): the profile's locale, the language a place search answers in. */
export const LocaleSchema = z.string().refine(
  (tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  },
  { message: 'Expected a BCP 47 language tag such as en-GB', params: { rule: 'locale_parsing' } },
);
