import { useSyncExternalStore } from 'react';
import { i18n, type MessageId } from './i18n.ts';
import type { Language } from './languages.ts';

export type Translate = (id: MessageId, values?: Record<string, unknown>) => string;

const subscribe = (listener: () => void) => i18n.on('change', listener);
const translate: Translate = (id, values) => i18n._(id, values);

/** The active language, re-rendering the component when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, () => i18n.locale as Language);
}

/** `t(id, values)`: a message of the active language; the component re-renders when the language changes. */
export function useT(): Translate {
  useLanguage();
  return translate;
}
