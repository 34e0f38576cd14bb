import type { PushPayload } from '#shared/api/push-payload.ts';
import { notificationText } from '../src/features/notifications/notification-text.ts';
import { i18n, type MessageId } from '../src/i18n/i18n.ts';
import { formattingLocale, languageOfLocale, type Language } from '../src/i18n/languages.ts';
import type { Translate } from '../src/i18n/use-t.ts';
import { messages as appEnglish } from '../src/i18n/catalogs/app.en.ts';
import { messages as appSpanish } from '../src/i18n/catalogs/app.es.ts';
import { messages as noticesEnglish } from '../src/i18n/catalogs/notices.en.ts';
import { messages as noticesSpanish } from '../src/i18n/catalogs/notices.es.ts';
import { formattersFor } from '../src/lib/intl-format.ts';
import { TRAVEL_API_LANGUAGE } from '../src/lib/travel-api-language.ts';

/** A system notification's words and their language. */
export interface PushText {
  title: string;
  body: string;
  lang: string;
}

/**
 * The app's catalogs a notification's text is written from (notices, and the names of segments and
 * bookings in app), compiled by the build as the app's are: the worker carries these, not the whole
 * interface.
 */
const CATALOGS: Record<Language, Partial<Record<MessageId, string>>> = {
  en: { ...appEnglish, ...noticesEnglish },
  es: { ...appSpanish, ...noticesSpanish },
};
const loaded = new Set<Language>();

const t: Translate = (id, values) => i18n._(id, values);

/** Shows the app's messages in the language of `locale` (English when the app does not speak it). */
function speak(locale: string): Language {
  const language = languageOfLocale(locale);
  if (!loaded.has(language)) {
    i18n.load(language, CATALOGS[language]);
    loaded.add(language);
  }
  if (i18n.locale !== language) i18n.activate(language);
  return language;
}

/**
 * A push's notification in the traveler's language (the locale of their profile), written from its event
 * and facts by the code and catalogs the app's inbox and toasts use; a push without the facts its kind
 * needs keeps the travel API's English, marked so.
 */
export function pushText(payload: PushPayload, locale: string): PushText {
  const language = speak(locale);
  try {
    const text = notificationText(
      {
        eventType: payload.eventType ?? '',
        facts: payload.facts ?? null,
        title: payload.title,
        body: payload.body,
      },
      formattersFor(formattingLocale(locale, language)),
      t,
    );
    return { title: text.title, body: text.body, lang: text.lang ?? language };
  } catch {
    // Facts the composition cannot read: the travel API's own words still tell the traveler.
    return { title: payload.title, body: payload.body, lang: TRAVEL_API_LANGUAGE };
  }
}

/** What a push that cannot be read says, in the traveler's language. */
export function unreadablePushText(locale: string): PushText {
  const language = speak(locale);
  return {
    title: t('notices.push.unreadable.title'),
    body: t('notices.push.unreadable.body'),
    lang: language,
  };
}
