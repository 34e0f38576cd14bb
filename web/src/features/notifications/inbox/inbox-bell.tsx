import { NavLink } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useT } from '../../../i18n/use-t.ts';
import { notificationQueries } from '../notification-queries.ts';

/** The inbox's link, with how many notifications are unread once `countUnread` lets it ask. */
export function InboxBell({ countUnread = true }: { countUnread?: boolean }) {
  const { data } = useInfiniteQuery({ ...notificationQueries.inbox(), enabled: countUnread });
  const unread = data?.pages[0]?.meta.unreadCount ?? 0;
  const t = useT();
  return (
    <NavLink to="/inbox" className="nav-link">
      <svg className="bell-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
        />
      </svg>
      <span>{t('nav.inbox')}</span>
      {unread > 0 && (
        <>
          <span className="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : String(unread)}
          </span>
          <span className="visually-hidden">{t('nav.inboxUnread', { count: unread })}</span>
        </>
      )}
    </NavLink>
  );
}
