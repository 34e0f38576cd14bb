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

const MAX_TOASTS = 3;

/**
 * Keeps the traveler's inbox live while it is mounted (live-stream/: one stream per browser, reconnecting,
 * each event applied to the inbox) and shows what arrives: toasts, at most three, each once across the
 * traveler's tabs, and a polite announcement of the newest.
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
  // The notifications shown as toasts, newest first, and the last one announced: put in words at each
  // render, so they read in the language of the moment.
  const [toasted, setToasted] = useState<Notification[]>([]);
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
          setToasted((current) => [notification, ...current].slice(0, MAX_TOASTS));
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
