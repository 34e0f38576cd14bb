import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { languageOfLocale } from '../../i18n/languages.ts';
import { activateLanguage } from '../../i18n/load-language.ts';
import { profileQueries } from '../../lib/profile-query.ts';

/** Shows the interface in the language of the traveler's profile locale, switching when it is saved. */
export function useProfileLanguage({ enabled }: { enabled: boolean }): void {
  const { data: profile } = useQuery({ ...profileQueries.current(), enabled });
  const language = profile ? languageOfLocale(profile.locale) : undefined;
  useEffect(() => {
    if (language) void activateLanguage(language);
  }, [language]);
}
