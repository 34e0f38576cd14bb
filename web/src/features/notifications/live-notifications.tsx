import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Notification } from '#shared/api/notifications.ts';
import { ToastRegion, type Toast } from '../../components/toast-region.tsx';
import { useT } from '../../i18n/use-t.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { eventLabel } from './event-label.ts';
import { notificationText } from './notification-text.ts';
import { inAppPath } from './notification-queries.ts';
import { browserEnvironment } from './live-stream/browser-environment.ts';
import { startLiveStream } from './live-stream/live-stream.ts';
import { onSubjectsOnPage, subjectsOnPage } from '../../lib/shown-on-page.ts';
import { enqueueToast, shownOnPage } from './toast-queue.ts';

/**
 * Keeps the traveler's inbox live while it is mounted (live-stream/: one stream per browser, reconnecting,
 * each event applied to the inbox) and shows what arrives: a toast at a time, each once across the
 * traveler's tabs, the others waiting their turn (toast-queue.ts); none for what the page in view
 * already shows (a trip's timeline its delay, a booking's page its confirmation), and a polite
 * announcement of the newest whatever the page.
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
  const t = useT();
  const format = useTravelerFormatters();
  // The notifications to toast, the one on screen first, and the last one announced: put in words at each
  // render, so they read in the language of the moment.
  const [toasted, setToasted] = useState<Notification[]>([]);
  // What the page in view shows is no toast: one showing or waiting is let go when its page opens.
  useEffect(
    () =>
      onSubjectsOnPage((shown) =>
        setToasted((current) => {
          const left = current.filter((notification) => !shownOnPage(notification, shown));
          return left.length < current.length ? left : current;
        }),
      ),
    [],
  );
  const [announced, setAnnounced] = useState<Notification | null>(null);
  const arrivalListener = useRef(onArrival);
  useEffect(() => {
    arrivalListener.current = onArrival;
  }, [onArrival]);

  const dismiss = useCallback((id: string) => {
    setToasted((current) => current.filter((notification) => notification.id !== id));
  }, []);

  useEffect(
    () =>
      startLiveStream({
        travelerId,
        queryClient,
        environment: browserEnvironment(),
        onArrival: (notification) => arrivalListener.current?.(notification),
        showToast: (notification) => {
          if (!shownOnPage(notification, subjectsOnPage())) {
            setToasted((current) => enqueueToast(current, notification));
          }
          setAnnounced(notification);
        },
      }),
    [travelerId, queryClient],
  );

  const toasts = toasted.map((notification): Toast => ({
    id: notification.id,
    kind: eventLabel(notification.eventType, t),
    ...notificationText(notification, format, t),
    tone: notification.severity === 'critical' || notification.severity === 'warning' ? 'warning' : 'info',
    link: { to: inAppPath(notification), label: t('inbox.viewTrip') },
  }));
  const said = announced && notificationText(announced, format, t);
  return (
    <>
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
      <p className="visually-hidden" role="status" aria-live="polite">
        {said && (
          <>
            {`${t('notices.arrived')} `}
            <span lang={said.lang}>{`${said.title}. ${said.body}`}</span>
          </>
        )}
      </p>
    </>
  );
}
