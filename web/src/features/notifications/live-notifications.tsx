import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  NOTIFICATION_STREAM_EVENT_NAMES as EVENTS,
  NotificationStreamNotificationSchema,
  NotificationStreamReconnectSchema,
  NotificationStreamSessionEndedSchema,
  NotificationStreamStatusSchema,
} from '#shared/api/notification-stream-events.ts';
import { parseSseData, type SseMessage } from '#shared/sse.ts';
import type { Notification } from '#shared/api/notifications.ts';
import { ToastRegion, type Toast } from '../../components/toast-region.tsx';
import { useT } from '../../i18n/use-t.ts';
import { apiSend } from '../../lib/api-client.ts';
import { isSessionExpired } from '../../lib/bff-error.ts';
import { readEventStream } from '../../lib/event-stream.ts';
import { leaveEndedSession } from '../../lib/leave-ended-session.ts';
import { loginUrl } from '../../lib/login-url.ts';
import { safeJson } from '../../lib/safe-json.ts';
import { answerShownLive } from './answer-shown-live.ts';
import { eventLabel, NOTIFICATION_TEXT_LANGUAGE } from './event-label.ts';
import { setLiveConnectionState, type LiveConnectionState } from './live-connection-store.ts';
import { postToOtherTabs, subscribeToOtherTabs } from './notification-channel.ts';
import {
  inAppPath,
  notificationQueries,
  withArrivedNotification,
  type InboxData,
} from './notification-queries.ts';
import { createToastClaims } from './toast-once.ts';
import { nextReconnectDelay } from './reconnect-delay.ts';
import { waitToReconnect } from './wait-to-reconnect.ts';

const MAX_TOASTS = 3;
/** Ids of notifications that arrived live, remembered so the service worker's push check can ask. */
const MAX_REMEMBERED_ARRIVALS = 500;
const SIGNED_OUT_REASONS = new Set(['logout', 'backchannel-logout']);

/** Where the browser can elect one tab (Web Locks) and relay to the others (BroadcastChannel). */
function canShareOneStream(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    navigator.locks !== undefined &&
    typeof BroadcastChannel === 'function'
  );
}

/**
 * Keeps the traveler's inbox live: reads the BFF notification stream with fetch, puts each arrival in
 * the inbox, toasts it once across tabs (announced politely), shows a quiet indicator while the
 * connection is away and catches up (refetch) each time it becomes live, when the server asks for a
 * resync, and when another tab changes read state.
 *
 * One stream per browser: the tab that holds a Web Lock named for the traveler reads the stream and relays
 * every event and connection state to the other tabs over the notification channel; when it closes, the
 * lock passes to another tab, which opens the stream with the last event id it heard and catches up. A
 * browser with six HTTP/1.1 connections per host is never frozen by its own tabs. Without Web Locks or
 * BroadcastChannel each tab reads its own stream.
 */
export function LiveNotifications({
  travelerId,
  onArrival,
}: {
  travelerId: string;
  /** Each notification that arrives live, once put in the inbox (the app refreshes the trip it is about). */
  onArrival?: (notification: Notification) => void;
}) {
  const queryClient = useQueryClient();
  const arrivalListener = useRef(onArrival);
  useEffect(() => {
    arrivalListener.current = onArrival;
  }, [onArrival]);
  const t = useT();
  // The notifications shown as toasts, newest first, and the last one announced: put in words at each
  // render, so they read in the language of the moment.
  const [toasted, setToasted] = useState<Notification[]>([]);
  const [announced, setAnnounced] = useState<Notification | null>(null);

  const dismiss = useCallback((id: string) => {
    setToasted((current) => current.filter((notification) => notification.id !== id));
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    const claims = createToastClaims(travelerId);
    const tab = crypto.randomUUID().replaceAll('-', '');
    const inboxKey = notificationQueries.inbox().queryKey;
    const shared = canShareOneStream();
    let holdsStream = false;
    /** The holder's view of the other tabs: whether each is on screen. */
    const otherTabsVisible = new Map<string, boolean>();
    const onScreen = () => document.visibilityState === 'visible';
    const anyTabOnScreen = () => onScreen() || [...otherTabsVisible.values()].some(Boolean);
    let connection: LiveConnectionState = 'connecting';
    const setConnection = (state: LiveConnectionState) => {
      connection = state;
      setLiveConnectionState(state);
      if (shared && holdsStream) postToOtherTabs({ kind: 'connection-state', travelerId, state });
    };
    let lastEventId: string | undefined;
    let retryAdvice: number | undefined;
    let failures = 0;
    // Whether this connection has said `live` yet: each time it becomes live (first open, every reopen,
    // the hub's upstream link back) the inbox is refetched once, covering what arrived before that.
    let streamLive = false;

    // Arrivals while a catch-up refetch is in flight, put back once it lands: a response read before
    // they were raised must not drop them from the inbox.
    const catchUpArrivals = new Set<Notification[]>();
    const catchUp = async () => {
      const arrivals: Notification[] = [];
      catchUpArrivals.add(arrivals);
      try {
        await queryClient.invalidateQueries({ queryKey: notificationQueries.all() });
      } finally {
        catchUpArrivals.delete(arrivals);
        for (const notification of arrivals) {
          queryClient.setQueryData<InboxData>(inboxKey, (data) =>
            withArrivedNotification(data, notification),
          );
        }
      }
    };
    const stopHearingOtherTabs = subscribeToOtherTabs((message) => {
      if (message.kind === 'read-state-changed') {
        void catchUp();
        return;
      }
      if (message.kind === 'signed-out') {
        // Another tab signed out: this one forgets the traveler too, and goes to the start page.
        controller.abort();
        void leaveEndedSession('/');
        return;
      }
      if (!shared || !('travelerId' in message) || message.travelerId !== travelerId) return;
      if (message.kind === 'stream-event' && !holdsStream) {
        onEvent({ event: message.event, data: message.data, id: message.id });
      } else if (message.kind === 'connection-state' && !holdsStream) {
        setLiveConnectionState(message.state);
      } else if (message.kind === 'tab-visibility' && holdsStream) {
        otherTabsVisible.set(message.tab, message.visible);
        reportVisibility();
        // A tab that just opened learns how the stream is doing from its first word to the holder.
        postToOtherTabs({ kind: 'connection-state', travelerId, state: connection });
      } else if (message.kind === 'stream-holder-changed' && !holdsStream) {
        tellHolderVisibility();
      }
    });
    // A push for a notification this page already showed live raises no system notification.
    const arrivedLive = new Set<string>();
    const rememberArrival = (id: string) => {
      arrivedLive.add(id);
      const oldest = arrivedLive.values().next().value;
      if (arrivedLive.size > MAX_REMEMBERED_ARRIVALS && oldest !== undefined) arrivedLive.delete(oldest);
    };
    const stopAnsweringServiceWorker = answerShownLive((id) => arrivedLive.has(id));

    const showToast = (notification: Notification) => {
      setToasted((current) => [notification, ...current].slice(0, MAX_TOASTS));
      setAnnounced(notification);
    };

    const onEvent = (message: SseMessage) => {
      try {
        switch (message.event) {
          case EVENTS.notification: {
            const { notification, alert, replay } = parseSseData(
              message,
              NotificationStreamNotificationSchema,
            );
            lastEventId = message.id ?? notification.id;
            rememberArrival(notification.id);
            queryClient.setQueryData<InboxData>(inboxKey, (data) =>
              withArrivedNotification(data, notification),
            );
            for (const arrivals of catchUpArrivals) arrivals.push(notification);
            arrivalListener.current?.(notification);
            // Shared stream: every tab hears the alert, and one that is on screen shows it.
            if (alert && !replay && (!shared || onScreen())) {
              void claims.claim(notification.id).then((claimed) => {
                if (claimed && !controller.signal.aborted) showToast(notification);
              });
            }
            break;
          }
          case EVENTS.status: {
            const { state } = parseSseData(message, NotificationStreamStatusSchema);
            connection = state;
            setLiveConnectionState(state);
            if (state === 'live' && !streamLive) void catchUp();
            streamLive = state === 'live';
            break;
          }
          case EVENTS.resync:
            void catchUp();
            break;
          case EVENTS.sessionEnded: {
            controller.abort();
            // Signed out (here or in another tab): back to the start page. Expired: sign in and return.
            const ended = NotificationStreamSessionEndedSchema.safeParse(safeJson(message.data));
            const signedOut = ended.success && SIGNED_OUT_REASONS.has(ended.data.reason);
            void leaveEndedSession(signedOut ? '/' : loginUrl());
            break;
          }
          case EVENTS.reconnect:
            retryAdvice = parseSseData(message, NotificationStreamReconnectSchema).retryMs;
            break;
        }
      } catch {
        // An event of a shape this version does not know: the inbox catch-up covers what it carried.
      }
    };

    const visible = () => (anyTabOnScreen() ? '1' : '0');
    const streamPath = () => {
      const params = new URLSearchParams({ tab, visible: visible() });
      if (lastEventId) params.set('lastEventId', lastEventId);
      return `/api/notifications/stream?${params.toString()}`;
    };

    // The browser knows before the connection does when the network went away: end the stream
    // then, and reconnect as soon as it is back (waitToReconnect).
    let attempt: AbortController | undefined;
    const onOffline = () => {
      setConnection('offline');
      attempt?.abort();
    };
    window.addEventListener('offline', onOffline);

    const run = async () => {
      let reopened = false;
      while (!controller.signal.aborted) {
        setConnection(reopened ? 'reconnecting' : 'connecting');
        // Aborted when the browser goes offline, or with everything else when the app stops listening.
        attempt = new AbortController();
        const end = await readEventStream(streamPath(), {
          signal: attempt.signal,
          onEvent: (message) => {
            onEvent(message);
            if (shared) {
              postToOtherTabs({
                kind: 'stream-event',
                travelerId,
                event: message.event ?? 'message',
                data: message.data,
                ...(message.id === undefined ? {} : { id: message.id }),
              });
            }
          },
          onRetry: (milliseconds) => {
            retryAdvice = milliseconds;
          },
          onOpen: () => {
            failures = 0;
            streamLive = false;
          },
        }).catch(() => ({ kind: 'truncated' as const }));
        if (controller.signal.aborted) return;
        if (end.kind === 'error' && isSessionExpired(end.error)) {
          void leaveEndedSession(loginUrl());
          return;
        }
        setConnection(navigator.onLine === false ? 'offline' : 'reconnecting');
        // Ended because the browser went offline: no failure of the server's, no back-off to grow.
        if (end.kind !== 'aborted') failures += 1;
        reopened = true;
        const delay = nextReconnectDelay(Math.max(failures, 1), retryAdvice);
        retryAdvice = undefined;
        await waitToReconnect(delay, controller.signal);
      }
    };
    function reportVisibility() {
      if (shared && !holdsStream) return;
      apiSend('/api/notifications/stream/visibility', {
        method: 'POST',
        body: { tab, visible: anyTabOnScreen() },
      }).catch(() => undefined);
    }
    function tellHolderVisibility() {
      postToOtherTabs({ kind: 'tab-visibility', travelerId, tab, visible: onScreen() });
    }
    const onVisibilityChange = () => {
      if (shared && !holdsStream) tellHolderVisibility();
      else reportVisibility();
    };
    document.addEventListener('visibilitychange', onVisibilityChange);
    // A tab that goes away is no longer on screen for the holder's count.
    const onPageHide = () => {
      if (shared && !holdsStream)
        postToOtherTabs({ kind: 'tab-visibility', travelerId, tab, visible: false });
    };
    window.addEventListener('pagehide', onPageHide);

    if (shared) {
      setLiveConnectionState('connecting');
      // Held until this tab closes or stops listening; then the next tab waiting for it takes over.
      navigator.locks
        .request(`wayfare:notification-stream:${travelerId}`, { signal: controller.signal }, async () => {
          holdsStream = true;
          postToOtherTabs({ kind: 'stream-holder-changed', travelerId });
          await run();
        })
        .catch(() => undefined);
      tellHolderVisibility();
    } else {
      void run();
    }

    return () => {
      controller.abort();
      attempt?.abort();
      claims.close();
      stopHearingOtherTabs();
      stopAnsweringServiceWorker();
      document.removeEventListener('visibilitychange', onVisibilityChange);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('offline', onOffline);
    };
  }, [travelerId, queryClient]);

  const toasts = toasted.map((notification): Toast => ({
    id: notification.id,
    kind: eventLabel(notification.eventType, t),
    title: notification.title,
    body: notification.body,
    lang: NOTIFICATION_TEXT_LANGUAGE,
    tone: notification.severity === 'critical' || notification.severity === 'warning' ? 'warning' : 'info',
    link: { to: inAppPath(notification), label: t('inbox.viewTrip') },
  }));
  return (
    <>
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
      <p className="visually-hidden" role="status" aria-live="polite">
        {announced && (
          <>
            {`${t('notices.arrived')} `}
            <span lang={NOTIFICATION_TEXT_LANGUAGE}>{`${announced.title}. ${announced.body}`}</span>
          </>
        )}
      </p>
    </>
  );
}
