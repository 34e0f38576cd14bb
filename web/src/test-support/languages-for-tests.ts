import { compileCatalog } from '../../../scripts/precompiled-messages-plugin.ts';
import { i18n } from '../i18n/i18n.ts';
import type { Language } from '../i18n/languages.ts';
import { messages as english } from '../i18n/messages.en.ts';
import { messages as spanish } from '../i18n/messages.es.ts';

const CATALOGS: Record<Language, Record<string, string>> = { en: english, es: spanish };

/** Renders the interface in `language`, its catalog compiled as the build compiles it. */
function activateForTests(language: Language): void {
  i18n.loadAndActivate({ locale: language, messages: compileCatalog(CATALOGS[language]) });
}

/** Tests render the interface in English (vitest.setup.ts), and go back to it after another language. */
export const activateEnglishForTests = (): void => activateForTests('en');

/** Renders the interface in Spanish for one test, which goes back to English after. */
export const activateSpanishForTests = (): void => activateForTests('es');
