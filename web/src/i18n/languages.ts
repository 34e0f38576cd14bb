/** The languages the whole interface is written in; every message exists in each (messages.*.ts). */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The locale dates, numbers and prices are written in when the profile's locale is in another language. */
const DEFAULT_LOCALE: Record<Language, string> = { en: 'en-GB', es: 'es-ES' };

/** Each locale's language, read once: pages ask for it on every render of every price and date. */
const primaryLanguages = new Map<string, string>();

function primaryLanguage(locale: string): string {
  let language = primaryLanguages.get(locale);
  if (language === undefined) {
    try {
      language = new Intl.Locale(locale).language;
    } catch {
      language = '';
    }
    primaryLanguages.set(locale, language);
  }
  return language;
}

/** The interface language for a locale: its own language when the app speaks it, else English. */
export function languageOfLocale(locale: string | undefined): Language {
  const language = primaryLanguage(locale ?? '');
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : 'en';
}

/**
 * The locale to format in, so that dates and prices are in the language of the words around them: the
 * profile's locale when it is in the interface's language (es-ES, en-US keep their region), else the
 * language's default.
 */
export function formattingLocale(locale: string | undefined, language: Language): string {
  return locale && primaryLanguage(locale) === language ? locale : DEFAULT_LOCALE[language];
}
