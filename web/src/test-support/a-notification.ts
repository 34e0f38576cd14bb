import type { Notification } from '#shared/api/notifications.ts';

/** A delay notification about one segment of trip-1, created `minutesAgo` before now unless told. */
export function aNotification(changes: Partial<Notification> & { id: string }, minutesAgo = 0): Notification {
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const segmentId = changes.segmentId ?? 'segment-1';
  return {
    tripId: 'trip-1',
    segmentId,
    eventType: 'SEGMENT_DELAYED',
    severity: 'warning',
    title: `Update ${changes.id}`,
    body: `Body of ${changes.title ?? `Update ${changes.id}`}`,
    deepLink: `wayfare://trips/trip-1/segment/${segmentId}`,
    channel: 'in_app',
    dispatchedAt: at,
    readAt: null,
    isDedupSkipped: false,
    deliveryStatus: 'delivered',
    createdAt: at,
    ...changes,
  };
}
