/** The languages the whole interface is written in; every message exists in each (messages.*.ts). */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The locale dates, numbers and prices are written in when the profile's locale is in another language. */
const DEFAULT_LOCALE: Record<Language, string> = { en: 'en-GB', es: 'es-ES' };

/**
 * A BCP 47 locale's language subtag ("es" of es-419), lower-cased; none for what is not a locale. Read
 * from the text rather than with Intl.Locale: pages ask for it on every render of every price and date,
 * and the first Intl object a page makes costs a phone's main thread before the first paint.
 */
function primaryLanguage(locale: string): string {
  return /^([a-z]{2,3})(?:-[a-z\d]{1,8})*$/i.exec(locale)?.[1]?.toLowerCase() ?? '';
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
