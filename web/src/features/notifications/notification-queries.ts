import { infiniteQueryOptions, type InfiniteData } from '@tanstack/react-query';
import type { NotificationsPageSchema, Notification, NotificationsPage } from '#shared/api/notifications.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';

export type InboxData = InfiniteData<NotificationsPage, string | null>;

export const notificationQueries = {
  all: () => ['notifications'] as const,
  inbox: () =>
    infiniteQueryOptions({
      queryKey: [...notificationQueries.all(), 'inbox'],
      queryFn: ({ pageParam, signal, queryKey }) =>
        pageParam
          ? apiJson<Answer<typeof NotificationsPageSchema>>(
              `/api/notifications?before=${encodeURIComponent(pageParam)}`,
              {
                signal,
              },
            )
          : apiJson<Answer<typeof NotificationsPageSchema>>('/api/notifications', {
              signal,
              updatedAtOf: queryKey,
            }),
      initialPageParam: null as string | null,
      getNextPageParam: (lastPage) => lastPage.meta.nextCursor,
      staleTime: 15_000,
      // Read state can change in another tab or device: a tab coming back to the front rechecks.
      refetchOnWindowFocus: 'always',
    }),
};

/** Puts a notification that arrived live at the top of the inbox, once, and counts it unread. */
export function withArrivedNotification(data: InboxData | undefined, notification: Notification) {
  if (!data) return data;
  const known = data.pages.some((page) => page.items.some((item) => item.id === notification.id));
  if (known) return data;
  const [first, ...rest] = data.pages;
  if (!first) return data;
  const unread = notification.readAt === null ? 1 : 0;
  return {
    ...data,
    pages: [
      {
        ...first,
        items: [notification, ...first.items],
        meta: {
          ...first.meta,
          totalCount: first.meta.totalCount + 1,
          unreadCount: first.meta.unreadCount + unread,
        },
      },
      ...rest,
    ],
  };
}

/** Marks one notification read in the cached inbox, keeping the unread count in step. */
export function withNotificationRead(data: InboxData | undefined, id: string, readAt: string) {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => ({
    ...page,
    items: page.items.map((item) => {
      if (item.id !== id || item.readAt !== null) return item;
      changed = true;
      return { ...item, readAt };
    }),
  }));
  if (!changed) return data;
  const [first, ...rest] = pages;
  if (!first) return data;
  return {
    ...data,
    pages: [
      { ...first, meta: { ...first.meta, unreadCount: Math.max(0, first.meta.unreadCount - 1) } },
      ...rest,
    ],
  };
}

/** The in-app path of a notification's deep link (`<scheme>://trips/<trip>/segment/<segment>`). */
export function inAppPath(notification: Pick<Notification, 'deepLink' | 'tripId' | 'segmentId'>): string {
  const match = /trips\/([^/?#]+)\/segments?\/([^/?#]+)/.exec(notification.deepLink);
  const tripId = match?.[1] ?? notification.tripId;
  const segmentId = match?.[2] ?? notification.segmentId;
  return `/trips/${encodeURIComponent(safeDecode(tripId))}/segment/${encodeURIComponent(safeDecode(segmentId))}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
