import type { QueryClient } from '@tanstack/react-query';
import { sessionQueries, travelerOf } from '../features/auth/session-queries.ts';
import { demoQueries } from '../features/demo/demo-queries.ts';
import { languageOfLocale } from '../i18n/languages.ts';
import { activateLanguage } from '../i18n/load-language.ts';

/**
 * Loader of every page: the session, and whether the demo controls are on, both asked at once and both
 * known before the first paint. The layout draws the demo strip from that answer, so the strip is in
 * place from the start instead of pushing the page down under the traveler's pointer a moment later.
 * Neither answer is needed to show the page: a failure of either leaves it to the screens to say.
 * A traveler's first screen is in the language of their profile, which the session answer carries; after
 * that the profile's own answer decides (web/src/features/profile/use-profile-language.ts).
 */
export function rootLoader(queryClient: QueryClient) {
  let firstPaint = true;
  return async () => {
    const [session] = await Promise.all([
      queryClient.ensureQueryData(sessionQueries.current()).catch(() => null),
      queryClient.ensureQueryData(demoQueries.status()).catch(() => null),
    ]);
    const locale = travelerOf(session ?? undefined)?.locale;
    if (firstPaint && locale) await activateLanguage(languageOfLocale(locale)).catch(() => undefined);
    firstPaint = false;
    return session;
  };
}
