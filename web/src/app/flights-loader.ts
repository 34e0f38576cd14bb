import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { flightSearchForm } from '../features/flights/lazy-flight-search-form.ts';
import { profileQueries } from '../lib/profile-query.ts';
import { formUnlessSearched } from './search-form-loader.ts';
import { headStartForTraveler } from './traveler-head-start.ts';

/**
 * Loader of the flights page. Opened on its form (no search in the address), it fetches the form's code
 * with the page's. Opened from a results link, it asks for the search itself as soon as the profile says
 * the traveler's currency, alongside the page's code, rather than once the page has drawn: the offers are
 * what a traveler opening the link came for. Only a head start, for a signed-in traveler: the page asks
 * for the same search (the same cache entry) when it draws, and says what failed.
 */
export function flightsLoader(queryClient: QueryClient) {
  const formFirst = formUnlessSearched(flightSearchForm, 'leg');
  return async (args: LoaderFunctionArgs) => {
    const params = new URL(args.request.url).searchParams;
    if (!params.has('leg')) return formFirst(args);
    void headStartForTraveler(queryClient, async () => {
      const [profile, linked, { flightQueries }] = await Promise.all([
        queryClient.ensureQueryData(profileQueries.current()),
        import('../features/flights/linked-flight-search.ts'),
        import('../features/flights/flight-queries.ts'),
      ]);
      const request = linked.linkedFlightSearch(params, profile);
      if (request) await queryClient.prefetchQuery(flightQueries.search(request));
    });
    return null;
  };
}
