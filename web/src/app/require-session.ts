import type { QueryClient } from '@tanstack/react-query';
import { redirectDocument, type LoaderFunctionArgs } from 'react-router';
import { sessionQueries, travelerOf } from '../features/auth/session-queries.ts';
import { leaveEndedSession } from '../lib/leave-ended-session.ts';
import { loginUrl } from '../lib/login-url.ts';
import { profileQueries } from '../lib/profile-query.ts';
import { offlineSignedOut } from './offline-signed-out.tsx';

/**
 * Loader of the signed-in part of the app: no traveler session, off to sign in and back here.
 *
 * Only the first page of a visit waits for the session's answer. Once the app knows its traveler, a
 * change of page or of a filter in the URL shows at once (the box ticks on the click) and the session is
 * asked again beside it, when the answer the app holds is stale: a session that ended meanwhile still
 * leads to sign-in, from wherever the traveler is by the time the answer comes.
 */
export function requireSession(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    if (travelerOf(queryClient.getQueryData(sessionQueries.current().queryKey))) {
      void queryClient.fetchQuery(sessionQueries.current()).then(
        (session) => {
          if (!travelerOf(session)) void leaveEndedSession(loginUrl());
        },
        // Offline or a failing BFF is no sign the session ended: the screens' own reads say what failed.
        () => undefined,
      );
      void queryClient.prefetchQuery(profileQueries.current());
      return null;
    }
    const session = await queryClient.fetchQuery(sessionQueries.current()).catch((error: unknown) => {
      // Offline, the service worker answers the session from what it saved for the traveler, and signing
      // out forgets that: no answer offline is a signed-out browser, which only the network can sign in.
      // A route's error answer is thrown as react-router's data, as a redirect is.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (!navigator.onLine) throw offlineSignedOut();
      throw error;
    });
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
