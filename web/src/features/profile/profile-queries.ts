import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileSchema, type Profile, type ProfilePatch } from '#shared/api/profile.ts';
import { apiJson } from '../../lib/api-client.ts';
import { profileQueries } from '../../lib/profile-query.ts';

/**
 * Saves profile changes and puts the saved profile in the cache. `onSaved` is a hook-level callback: it is
 * called even though the form that saved remounts with the new profile (a per-call callback would be lost).
 */
export function useUpdateProfile(onSaved?: (profile: Profile) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ProfilePatch) =>
      apiJson('/api/profile', ProfileSchema, {
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
