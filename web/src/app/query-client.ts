import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isSessionExpired } from '../lib/bff-error.ts';
import { shouldRetryRead } from '../lib/error-grammar.ts';
import { leaveEndedSession } from '../lib/leave-ended-session.ts';
import { loginUrl } from '../lib/login-url.ts';

/** Sends the traveler through sign-in and back here when the BFF says the session is gone. */
function signInAgainWhenSessionExpired(error: unknown): void {
  if (isSessionExpired(error)) void leaveEndedSession(loginUrl());
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: signInAgainWhenSessionExpired }),
    mutationCache: new MutationCache({ onError: signInAgainWhenSessionExpired }),
    defaultOptions: {
      queries: {
        retry: shouldRetryRead,
        staleTime: 30_000,
        // Offline, a read still goes out once: the service worker answers it with what was saved.
        networkMode: 'offlineFirst',
      },
      mutations: { retry: false },
    },
  });
}
