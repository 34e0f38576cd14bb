import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileSchema, Profile, ProfilePatch } from '#shared/api/profile.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';
import { profileQueries } from '../../lib/profile-query.ts';

/**
 * Saves profile changes and puts the saved profile in the cache. `onSaved` is a hook-level callback: it is
 * called even though the form that saved remounts with the new profile (a per-call callback would be lost).
 */
export function useUpdateProfile(onSaved?: (profile: Profile) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ProfilePatch) =>
      apiJson<Answer<typeof ProfileSchema>>('/api/profile', {
        method: 'PATCH',
        body: patch,
        updatedAtOf: profileQueries.current().queryKey,
      }),
    onSuccess: (profile) => {
      onSaved?.(profile);
      queryClient.setQueryData(profileQueries.current().queryKey, profile);
    },
  });
}
