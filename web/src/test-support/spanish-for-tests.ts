import { compileCatalog } from '../../../scripts/precompiled-messages-plugin.ts';
import { i18n } from '../i18n/i18n.ts';
import { messages } from '../i18n/messages.es.ts';

/**
 * Renders the interface in Spanish for one test, its catalog compiled as the build compiles it; the test
 * goes back to English after (activateEnglishForTests), as every other test expects.
 */
export function activateSpanishForTests(): void {
  i18n.loadAndActivate({ locale: 'es', messages: compileCatalog(messages) });
}
