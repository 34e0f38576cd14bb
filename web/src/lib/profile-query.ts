import { queryOptions } from '@tanstack/react-query';
import type { ProfileSchema } from '#shared/api/profile.ts';
import { apiJson, type Answer } from './api-client.ts';

/**
 * The traveler's profile as every screen reads it (locale, currency, home airport); the Profile screen edits
 * it (features/profile/profile-queries.ts).
 */
export const profileQueries = {
  all: () => ['profile'] as const,
  current: () =>
    queryOptions({
      queryKey: [...profileQueries.all(), 'current'],
      queryFn: ({ signal, queryKey }) =>
        apiJson<Answer<typeof ProfileSchema>>('/api/profile', { signal, updatedAtOf: queryKey }),
      staleTime: 5 * 60_000,
      // Many screens read the profile; a failed read is retried by the traveler, not by every mount.
      retryOnMount: false,
    }),
};
