import type { QueryClient } from '@tanstack/react-query';
import type {
  NotificationStreamNotification,
  NotificationStreamReconnect,
  NotificationStreamSessionEnded,
  NotificationStreamStatus,
} from '#shared/api/notification-stream-events.ts';
import { NOTIFICATION_STREAM_EVENT_NAMES as EVENTS } from '#shared/api/notification-stream-names.ts';
import { readSseJson, type SseMessage } from '#shared/sse.ts';
import type { Notification } from '#shared/api/notifications.ts';
import { safeJson } from '../../../lib/safe-json.ts';
import type { LiveConnectionState } from '../live-connection-store.ts';
import { notificationQueries, withArrivedNotification, type InboxData } from '../notification-queries.ts';

/** Ids of notifications that arrived live, remembered so the service worker's push check can ask. */
const MAX_REMEMBERED_ARRIVALS = 500;
const SIGNED_OUT_REASONS = new Set(['logout', 'backchannel-logout']);

export interface EventApplierOptions {
  queryClient: QueryClient;
  /** Whether this tab may show an alert now (a tab of a shared stream only while it is on screen). */
  mayToast: () => boolean;
  /** Takes the one toast of a notification across the traveler's tabs (toast-once.ts). */
  claimToast: (notificationId: string) => Promise<boolean>;
  /** Whether the stream stopped (signed out, the app stopped listening): a late claim shows nothing. */
  stopped: () => boolean;
  showToast: (notification: Notification) => void;
  /** Each notification that arrived, once it is in the inbox. */
  onArrival?: ((notification: Notification) => void) | undefined;
  /** The connection state the server reports (`live`, or `reconnecting` while its upstream link is away). */
  onStatus: (state: LiveConnectionState) => void;
  /** The session ended: `signedOut` (here or elsewhere) rather than expired. */
  onSessionEnded: (signedOut: boolean) => void;
  /** The server's advice for the next reconnect, in milliseconds. */
  onReconnectAdvice: (milliseconds: number) => void;
}

export interface EventApplier {
  /** Applies one event of the notification stream, read here or relayed by the tab that reads it. */
  apply: (message: SseMessage) => void;
  /** Refetches the inbox, keeping what arrives while the refetch is in flight. */
  catchUp: () => Promise<void>;
  /** The last event id heard, where a reopened stream resumes. */
  lastEventId: () => string | undefined;
  /** A new connection opened: the next `live` it reports catches the inbox up once. */
  streamOpened: () => void;
  /** Whether the notification arrived live here (the service worker raises no push for it). */
  arrivedLive: (notificationId: string) => boolean;
}

/**
 * What each event of the notification stream does to the app: an arrival goes into the inbox, refreshes
 * what it is about and is toasted once across tabs; each time the connection becomes live, and when the
 * server asks for a resync, the inbox catches up; the end of the session leaves the traveler's pages.
 */
export function createEventApplier(options: EventApplierOptions): EventApplier {
  const { queryClient } = options;
  const inboxKey = notificationQueries.inbox().queryKey;
  let lastEventId: string | undefined;
  // Whether this connection has said `live` yet: each time it becomes live (first open, every reopen,
  // the hub's upstream link back) the inbox is refetched once, covering what arrived before that.
  let streamLive = false;
  const arrivedLive = new Set<string>();
  const rememberArrival = (id: string) => {
    arrivedLive.add(id);
    const oldest = arrivedLive.values().next().value;
    if (arrivedLive.size > MAX_REMEMBERED_ARRIVALS && oldest !== undefined) arrivedLive.delete(oldest);
  };

  // Arrivals while a catch-up refetch is in flight, put back once it lands: a response read before
  // they were raised must not drop them from the inbox.
  const catchUpArrivals = new Set<Notification[]>();
  const putInInbox = (notification: Notification) =>
    queryClient.setQueryData<InboxData>(inboxKey, (data) => withArrivedNotification(data, notification));
  // The reasons to catch up read in one go make one catch-up: a fresh stream says `live` and then its
  // initial `resync` in the same chunk, and each refetch of the inbox would cancel the one before it.
  // A reason read after the refetch has started starts another (it may postdate what that one reads).
  let queuedCatchUp: Promise<void> | undefined;
  const catchUp = () => {
    if (queuedCatchUp) return queuedCatchUp;
    const arrivals: Notification[] = [];
    catchUpArrivals.add(arrivals);
    queuedCatchUp = (async () => {
      await Promise.resolve();
      queuedCatchUp = undefined;
      try {
        await queryClient.invalidateQueries({ queryKey: notificationQueries.all() });
      } finally {
        catchUpArrivals.delete(arrivals);
        for (const notification of arrivals) putInInbox(notification);
      }
    })();
    return queuedCatchUp;
  };

  const arrive = (message: SseMessage) => {
    const { notification, alert, replay } = readSseJson<NotificationStreamNotification>(message);
    lastEventId = message.id ?? notification.id;
    rememberArrival(notification.id);
    putInInbox(notification);
    for (const arrivals of catchUpArrivals) arrivals.push(notification);
    options.onArrival?.(notification);
    // Shared stream: every tab hears the alert, and one that is on screen shows it.
    if (alert && !replay && options.mayToast()) {
      void options.claimToast(notification.id).then((claimed) => {
        if (claimed && !options.stopped()) options.showToast(notification);
      });
    }
  };

  const apply = (message: SseMessage) => {
    try {
      switch (message.event) {
        case EVENTS.notification:
          arrive(message);
          break;
        case EVENTS.status: {
          const { state } = readSseJson<NotificationStreamStatus>(message);
          options.onStatus(state);
          if (state === 'live' && !streamLive) void catchUp();
          streamLive = state === 'live';
          break;
        }
        case EVENTS.resync:
          void catchUp();
          break;
        case EVENTS.sessionEnded: {
          // An ending whose data does not say why (not JSON) is taken as an expiry.
          const ended = safeJson(message.data) as Partial<NotificationStreamSessionEnded> | undefined;
          options.onSessionEnded(SIGNED_OUT_REASONS.has(String(ended?.reason)));
          break;
        }
        case EVENTS.reconnect:
          options.onReconnectAdvice(readSseJson<NotificationStreamReconnect>(message).retryMs);
          break;
      }
    } catch {
      // An event of a shape this version does not know: the inbox catch-up covers what it carried.
    }
  };

  return {
    apply,
    catchUp,
    lastEventId: () => lastEventId,
    streamOpened: () => {
      streamLive = false;
    },
    arrivedLive: (id) => arrivedLive.has(id),
  };
}
