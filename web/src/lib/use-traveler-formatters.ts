import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formattingLocale } from '../i18n/languages.ts';
import { useLanguage } from '../i18n/use-t.ts';
import { formattersFor, type Formatters } from './intl-format.ts';
import { profileQueries } from './profile-query.ts';

export interface TravelerFormatters extends Formatters {
  /** The traveler's preferred currency, for searches that take one. */
  currency: string | undefined;
}

/**
 * Intl formatters in the traveler's profile locale when it is in the language the interface is shown in,
 * else in that language's own locale: dates and prices always read in the language around them.
 */
export function useTravelerFormatters({ enabled = true }: { enabled?: boolean } = {}): TravelerFormatters {
  const { data: profile } = useQuery({ ...profileQueries.current(), enabled });
  const language = useLanguage();
  // The browser's locale until the profile loads, as long as it is in the interface's language.
  const locale = profile?.locale ?? (typeof navigator !== 'undefined' ? navigator.language : undefined);
  const currency = profile?.currency;
  const formatting = formattingLocale(locale, language);
  // The same object while the locale and currency stay: memoised components that take it skip a render.
  return useMemo(() => ({ ...formattersFor(formatting), currency }), [formatting, currency]);
}
