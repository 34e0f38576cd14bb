import { setupI18n } from '@lingui/core';
import type { messages as english } from './messages.en.ts';

declare module '@lingui/core' {
  interface Register {
    messageIds: keyof typeof english;
  }
}

/** Every message id of the interface; the English catalog is the source. */
export type MessageId = keyof typeof english;

/** The app's one Lingui instance; the active catalog is loaded with its language (load-language.ts). */
export const i18n = setupI18n({
  // A message missing from the active catalog fails the test that renders it; a traveler would see its
  // id rather than a blank (the catalogs' types and messages.test.ts keep that from shipping).
  missing: (locale, id) => {
    if (import.meta.env.MODE === 'test') throw new Error(`No ${locale} message ${id}`);
    return id;
  },
});
