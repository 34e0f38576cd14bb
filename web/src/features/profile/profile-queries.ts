import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileSchema, type ProfilePatch } from '#shared/api/profile.ts';
import { apiJson } from '../../lib/api-client.ts';

export const profileQueries = {
  all: () => ['profile'] as const,
  current: () =>
    queryOptions({
      queryKey: [...profileQueries.all(), 'current'],
      queryFn: ({ signal }) => apiJson('/api/profile', ProfileSchema, { signal }),
      staleTime: 5 * 60_000,
      // Many screens read the profile; a failed read is retried by the traveler, not by every mount.
      retryOnMount: false,
    }),
};

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ProfilePatch) =>
      apiJson('/api/profile', ProfileSchema, { method: 'PATCH', body: patch }),
    onSuccess: (profile) => queryClient.setQueryData(profileQueries.current().queryKey, profile),
  });
}
