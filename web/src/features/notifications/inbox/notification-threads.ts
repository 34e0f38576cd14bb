import type { Notification } from '#shared/api/notifications.ts';

/** What one segment's notifications say together: the latest is its current status, the rest its history. */
export interface NotificationThread {
  key: string;
  current: Notification;
  /** Older notifications about the same segment, newest first. */
  earlier: Notification[];
}

/**
 * Folds the inbox (newest first) into one thread per segment, ordered by each thread's newest
 * notification: three successive delays of a flight read as its current delay with two earlier updates.
 * Notifications created in the same millisecond keep the inbox's order, which is the order the service
 * raised them in (its ids are random, so they say nothing of which came last).
 */
export function notificationThreads(notifications: readonly Notification[]): NotificationThread[] {
  const threads = new Map<string, NotificationThread>();
  // A stable sort: ties stay as the inbox lists them.
  const newestFirst = [...notifications].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  for (const notification of newestFirst) {
    const key = `${notification.tripId}/${notification.segmentId}`;
    const thread = threads.get(key);
    if (thread) thread.earlier.push(notification);
    else threads.set(key, { key, current: notification, earlier: [] });
  }
  return [...threads.values()];
}
