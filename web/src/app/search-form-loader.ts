import type { LoaderFunctionArgs } from 'react-router';
import type { Preloadable } from '../lib/preloadable.tsx';

/**
 * Loader of a search page whose form is fetched apart from it (lib/preloadable.tsx): opened without a
 * search in its address (no `searchParam`), the page is its form, so the form's code is asked for
 * alongside the page's and the page draws with it. A results link folds the form and does not wait for
 * it. A failure to fetch is left to the form itself, which asks again when it draws.
 */
export function formUnlessSearched(form: Pick<Preloadable<never>, 'preload'>, searchParam: string) {
  return async ({ request }: LoaderFunctionArgs) => {
    if (!new URL(request.url).searchParams.has(searchParam)) await form.preload().catch(() => undefined);
    return null;
  };
}
