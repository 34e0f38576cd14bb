import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationsReadAllSchema } from '#shared/api/notifications.ts';
import { apiJson, type Answer } from '../../../lib/api-client.ts';
import { postToOtherTabs } from '../notification-channel.ts';
import { notificationQueries, type InboxData } from '../notification-queries.ts';

/** Marks every notification read: shown read at once, reconciled with the server, told to the other tabs. */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  const inboxKey = notificationQueries.inbox().queryKey;
  return useMutation({
    mutationFn: () =>
      apiJson<Answer<typeof NotificationsReadAllSchema>>('/api/notifications/read-all', { method: 'POST' }),
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: inboxKey });
      const previous = queryClient.getQueryData<InboxData>(inboxKey);
      const readAt = new Date().toISOString();
      queryClient.setQueryData<InboxData>(inboxKey, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page, index) => ({
                ...page,
                items: page.items.map((item) => (item.readAt === null ? { ...item, readAt } : item)),
                meta: index === 0 ? { ...page.meta, unreadCount: 0 } : page.meta,
              })),
            }
          : data,
      );
      return { previous };
    },
    onError: (_error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(inboxKey, context.previous);
    },
    onSettled: () => {
      postToOtherTabs({ kind: 'read-state-changed' });
      return queryClient.invalidateQueries({ queryKey: inboxKey });
    },
  });
}
