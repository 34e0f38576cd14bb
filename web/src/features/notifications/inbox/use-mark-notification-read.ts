import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { postToOtherTabs } from '../notification-channel.ts';
import { notificationQueries, withNotificationRead, type InboxData } from '../notification-queries.ts';

/**
 * Marks a notification read, showing it read at once and reconciling with the server afterwards; the
 * other open tabs hear of it and refetch their inbox and bell.
 */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  const inboxKey = notificationQueries.inbox().queryKey;
  return useMutation({
    mutationFn: (id: string) =>
      apiSend(`/api/notifications/${encodeURIComponent(id)}/read`, { method: 'POST' }),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: inboxKey });
      const previous = queryClient.getQueryData<InboxData>(inboxKey);
      queryClient.setQueryData<InboxData>(inboxKey, (data) =>
        withNotificationRead(data, id, new Date().toISOString()),
      );
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(inboxKey, context.previous);
    },
    onSettled: () => {
      postToOtherTabs({ kind: 'read-state-changed' });
      return queryClient.invalidateQueries({ queryKey: inboxKey });
    },
  });
}
