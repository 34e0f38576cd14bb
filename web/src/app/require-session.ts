import type { QueryClient } from '@tanstack/react-query';
import { redirectDocument, type LoaderFunctionArgs } from 'react-router';
import { sessionQueries, travelerOf } from '../features/auth/session-queries.ts';
import { loginUrl } from '../lib/login-url.ts';
import { profileQueries } from '../lib/profile-query.ts';

/** Loader of the signed-in part of the app: no traveler session, off to sign in and back here. */
export function requireSession(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    const session = await queryClient.fetchQuery(sessionQueries.current());
    if (travelerOf(session)) {
      void queryClient.prefetchQuery(profileQueries.current());
      return null;
    }
    const url = new URL(request.url);
    // react-router's documented way to leave a loader is to throw the redirect Response.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw redirectDocument(loginUrl(`${url.pathname}${url.search}`));
  };
}
