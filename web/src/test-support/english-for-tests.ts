import { compileCatalog } from '../../../scripts/precompiled-messages-plugin.ts';
import { i18n } from '../i18n/i18n.ts';
import { messages } from '../i18n/messages.en.ts';

/** Tests render the interface in English, its catalog compiled as the build compiles it. */
export function activateEnglishForTests(): void {
  i18n.loadAndActivate({ locale: 'en', messages: compileCatalog(messages) });
}
