import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Notification } from '#shared/api/notifications.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { LastUpdated } from '../../../components/last-updated.tsx';
import { useT } from '../../../i18n/use-t.ts';
import { OfflineNote } from '../../../components/offline-note.tsx';
import { useOnline } from '../../../lib/use-online.ts';
import type { Formatters } from '../../../lib/intl-format.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useTravelerFormatters } from '../../../lib/use-traveler-formatters.ts';
import { eventLabel } from '../event-label.ts';
import { notificationText } from '../notification-text.ts';
import { LiveIndicator } from '../live-indicator.tsx';
import { inAppPath, notificationQueries } from '../notification-queries.ts';
import { notificationThreads, type NotificationThread } from './notification-threads.ts';
import { PushOptIn } from './push-opt-in.tsx';
import { useMarkAllRead } from './use-mark-all-read.ts';
import { useMarkNotificationRead } from './use-mark-notification-read.ts';
import './inbox.css';

const SEVERITY_TONES: Record<string, string> = {
  critical: 'chip-danger',
  warning: 'chip-warning',
  info: 'chip-info',
};
export function InboxPage() {
  const t = useT();
  useDocumentTitle(t('nav.inbox'));
  const inbox = useInfiniteQuery(notificationQueries.inbox());
  const format = useTravelerFormatters();
  const markRead = useMarkNotificationRead();
  const markAllRead = useMarkAllRead();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const online = useOnline();

  const all = dedupe(inbox.data?.pages.flatMap((page) => page.items) ?? []);
  const unreadCount = inbox.data?.pages[0]?.meta.unreadCount ?? 0;
  const shown = unreadOnly ? all.filter((notification) => notification.readAt === null) : all;
  const listRef = useRef<HTMLOListElement>(null);
  const countRef = useRef<HTMLHeadingElement>(null);
  // The pressed button goes away with the unread state: focus moves on to the next unread notification's
  // button (or the one before), and to the count once none is left, instead of dropping to the page.
  const markReadAndMoveOn = (id: string) => {
    const buttons = [
      ...(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-mark-read]') ?? []),
    ];
    const index = buttons.findIndex((button) => button.dataset.markRead === id);
    const next = buttons[index + 1] ?? buttons[index - 1];
    if (next) next.focus();
    else countRef.current?.focus();
    markRead.mutate(id);
  };

  return (
    <div className="page">
      <div className="page-header">
        <div className="inbox-title">
          <h1>{t('nav.inbox')}</h1>
          <LiveIndicator />
        </div>
        <LastUpdated queryKey={notificationQueries.inbox().queryKey} format={format} />
      </div>
      <div className="inbox-layout">
        <section aria-labelledby="inbox-list-title" className="stack">
          <div className="row-between">
            <h2 id="inbox-list-title" className="inbox-count" ref={countRef} tabIndex={-1}>
              {unreadCount > 0
                ? t('inbox.unread', { count: format.count(unreadCount) })
                : t('inbox.allCaughtUp')}
            </h2>
            {unreadCount > 0 && (
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={markAllRead.isPending || !online}
                onClick={() => {
                  // The button goes with the unread state: focus moves to the count, which says the outcome.
                  countRef.current?.focus();
                  markAllRead.mutate();
                }}
              >
                {t('inbox.markAllRead')}
              </button>
            )}
            <fieldset className="segmented-filter">
              <legend className="visually-hidden">{t('inbox.show')}</legend>
              <label className="choice">
                <input
                  type="radio"
                  name="inbox-filter"
                  checked={!unreadOnly}
                  onChange={() => setUnreadOnly(false)}
                />
                {t('inbox.all')}
              </label>
              <label className="choice">
                <input
                  type="radio"
                  name="inbox-filter"
                  checked={unreadOnly}
                  onChange={() => setUnreadOnly(true)}
                />
                {t('inbox.unreadOnly')}
              </label>
            </fieldset>
          </div>
          {unreadCount > 0 && <OfflineNote message="offline.markingRead" />}
          {inbox.isError && !inbox.data ? (
            <ErrorNotice error={inbox.error} onRetry={() => void inbox.refetch()} />
          ) : inbox.isPending ? (
            <ol className="card-list" aria-busy="true" aria-label={t('inbox.notifications')}>
              {[0, 1, 2].map((index) => (
                <li key={index} aria-hidden="true">
                  <div className="card notification-card">
                    <span className="skeleton skeleton-line rate-skeleton-long" />
                    <span className="skeleton skeleton-line" />
                  </div>
                </li>
              ))}
            </ol>
          ) : shown.length === 0 ? (
            <div className="empty-state">
              <h3>{unreadOnly ? t('inbox.noUnread') : t('inbox.none')}</h3>
              <p className="muted">{t('inbox.noneHint')}</p>
            </div>
          ) : (
            <ol className="card-list" aria-label={t('inbox.notifications')} ref={listRef}>
              {notificationThreads(shown).map((thread) => (
                <li key={thread.key} className="notification-thread">
                  <NotificationCard
                    notification={thread.current}
                    format={format}
                    online={online}
                    onMarkRead={() => markReadAndMoveOn(thread.current.id)}
                  />
                  {thread.earlier.length > 0 && (
                    <EarlierUpdates
                      thread={thread}
                      format={format}
                      online={online}
                      onMarkRead={markReadAndMoveOn}
                    />
                  )}
                </li>
              ))}
            </ol>
          )}
          {markRead.isError && <ErrorNotice error={markRead.error} onRetry={() => markRead.reset()} />}
          {markAllRead.isError && (
            <ErrorNotice error={markAllRead.error} onRetry={() => markAllRead.mutate()} takeFocus />
          )}
          {inbox.hasNextPage && (
            <div>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => void inbox.fetchNextPage()}
                disabled={inbox.isFetchingNextPage}
              >
                {inbox.isFetchingNextPage ? t('inbox.loading') : t('inbox.older')}
              </button>
            </div>
          )}
          {inbox.isError && inbox.data && (
            <ErrorNotice error={inbox.error} onRetry={() => void inbox.refetch()} />
          )}
        </section>
        <PushOptIn />
      </div>
    </div>
  );
}

function dedupe(notifications: Notification[]): Notification[] {
  const seen = new Set<string>();
  return notifications.filter((notification) => !seen.has(notification.id) && seen.add(notification.id));
}

function NotificationCard({
  notification,
  format,
  online,
  onMarkRead,
}: {
  notification: Notification;
  format: Formatters;
  online: boolean;
  onMarkRead: () => void;
}) {
  const t = useT();
  const unread = notification.readAt === null;
  const titleId = `notification-${notification.id}`;
  const text = notificationText(notification, format, t);
  return (
    <article
      className={unread ? 'card notification-card notification-unread' : 'card notification-card'}
      aria-labelledby={titleId}
    >
      <div className="notification-head">
        <span className={['chip', SEVERITY_TONES[notification.severity] ?? 'chip-info'].join(' ')}>
          {eventLabel(notification.eventType, t)}
        </span>
        <time className="small muted" dateTime={notification.createdAt}>
          {format.relative(notification.createdAt)}
        </time>
      </div>
      <h3 id={titleId} className="notification-title">
        {unread && <span className="unread-dot" aria-hidden="true" />}
        {unread && <span className="visually-hidden">{t('inbox.unreadMark')}</span>}{' '}
        <span lang={text.lang}>{text.title}</span>
      </h3>
      <p lang={text.lang}>{text.body}</p>
      <div className="row">
        <Link to={inAppPath(notification)} onClick={() => unread && online && onMarkRead()}>
          {t('inbox.viewTrip')}
        </Link>
        {unread && (
          <MarkReadButton
            notification={notification}
            format={format}
            online={online}
            onMarkRead={onMarkRead}
          />
        )}
      </div>
    </article>
  );
}

/** The history under a segment's current status: what was said before, when, without the old details. */
function EarlierUpdates({
  thread,
  format,
  online,
  onMarkRead,
}: {
  thread: NotificationThread;
  format: Formatters;
  online: boolean;
  onMarkRead: (id: string) => void;
}) {
  const t = useT();
  const headingId = `earlier-${thread.current.id}`;
  return (
    <section className="notification-history" aria-labelledby={headingId}>
      <h4 id={headingId} className="small muted">
        {t('inbox.earlier', { count: format.count(thread.earlier.length) })}
      </h4>
      <ol className="notification-history-list">
        {thread.earlier.map((notification) => {
          const unread = notification.readAt === null;
          const titleId = `notification-${notification.id}`;
          const text = notificationText(notification, format, t);
          return (
            <li key={notification.id}>
              <article className="notification-history-item small" aria-labelledby={titleId}>
                <span id={titleId}>
                  {unread && <span className="visually-hidden">{`${t('inbox.unreadMark')} `}</span>}
                  <span lang={text.lang}>{text.title}</span>
                </span>{' '}
                <time className="muted" dateTime={notification.createdAt}>
                  {format.relative(notification.createdAt)}
                </time>
                {unread && (
                  <MarkReadButton
                    notification={notification}
                    format={format}
                    online={online}
                    onMarkRead={() => onMarkRead(notification.id)}
                  />
                )}
              </article>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Marks one notification read; its name says which ("Mark as read: <title>"), offered only online. */
function MarkReadButton({
  notification,
  format,
  online,
  onMarkRead,
}: {
  notification: Notification;
  format: Formatters;
  online: boolean;
  onMarkRead: () => void;
}) {
  const t = useT();
  const text = notificationText(notification, format, t);
  return (
    <button
      type="button"
      className="button button-ghost button-small"
      onClick={onMarkRead}
      disabled={!online}
      data-mark-read={notification.id}
    >
      {t('inbox.markRead')}
      <span className="visually-hidden">
        : <span lang={text.lang}>{text.title}</span>
      </span>
    </button>
  );
}
