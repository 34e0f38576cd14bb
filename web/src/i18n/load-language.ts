import { i18n, type MessageId } from './i18n.ts';
import type { Language } from './languages.ts';

/** The interface language last shown in this browser (kept on sign-out: a setting of the device, not the traveler's data). */
export const REMEMBERED_LANGUAGE = 'wayfare:language';

/** Each catalog is its own chunk, fetched only for the language shown, compiled at build time
 * (scripts/precompiled-messages-plugin.ts), so the browser never loads the ICU compiler. */
const CATALOGS: Record<Language, () => Promise<Record<MessageId, string>>> = {
  en: async () => (await import('./messages.en.ts')).messages,
  es: async () => (await import('./messages.es.ts')).messages,
};

/** Loads a language's catalog and shows the whole interface in it, the document's lang included. */
export async function activateLanguage(language: Language): Promise<void> {
  if (i18n.locale !== language) {
    i18n.loadAndActivate({ locale: language, messages: await CATALOGS[language]() });
  }
  document.documentElement.lang = language;
  try {
    localStorage.setItem(REMEMBERED_LANGUAGE, language);
  } catch {
    // Without storage the next visit starts in the browser's language until the profile loads.
  }
}

/** The language to start in before the profile is read: the one last shown here, else the browser's. */
export function startingLanguage(languageOf: (locale: string) => Language): Language {
  try {
    const remembered = localStorage.getItem(REMEMBERED_LANGUAGE);
    if (remembered) return languageOf(remembered);
  } catch {
    // Storage refused: fall through to the browser's language.
  }
  return languageOf(navigator.language);
}
