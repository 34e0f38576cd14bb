// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InboxPage } from './inbox-page.tsx';
import { renderApp } from '../../../test-support/render-app.tsx';
import { aNotification } from '../../../test-support/a-notification.ts';
import { stubFetch } from '../../../test-support/stub-fetch.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const notification = (id: string, segmentId: string, title: string, minutesAgo: number) =>
  aNotification({ id, segmentId, title }, minutesAgo);

describe('InboxPage', () => {
  it('shows successive delays of one flight as its current status with the earlier ones as history', async () => {
    const items = [
      notification('n3', 'flight', 'LH 100 is delayed by 2 h 30 min', 1),
      notification('n2', 'hotel', 'Check-in is open for Hotel Lumen', 5),
      notification('n1', 'flight', 'LH 100 is delayed by 45 min', 30),
    ];
    stubFetch((url) =>
      url.startsWith('/api/notifications')
        ? { json: { items, meta: { totalCount: 3, pageSize: 20, nextCursor: null, unreadCount: 3 } } }
        : { status: 404, json: {} },
    );
    renderApp(<InboxPage />, { url: '/inbox' });

    await screen.findByRole('heading', { level: 2, name: '3 unread' });
    const list = screen.getByRole('list', { name: 'Notifications' });
    const threads = within(list)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === list);
    expect(threads).toHaveLength(2);
    const flight = within(threads[0] as HTMLElement);
    expect(flight.getByRole('heading', { level: 3 })).toHaveTextContent('LH 100 is delayed by 2 h 30 min');
    expect(flight.getByText('Body of LH 100 is delayed by 2 h 30 min')).toBeInTheDocument();
    // The old delay is history: its title and when, not its old times.
    expect(flight.getByRole('heading', { name: 'Earlier updates (1)' })).toBeInTheDocument();
    expect(flight.getByRole('article', { name: /delayed by 45 min/ })).toBeInTheDocument();
    expect(flight.queryByText('Body of LH 100 is delayed by 45 min')).toBeNull();
    expect(within(threads[1] as HTMLElement).queryByRole('heading', { name: /Earlier updates/ })).toBeNull();
  });

  it('moves focus to the next unread notification after Mark as read, and to the count after the last', async () => {
    const items = [
      notification('n2', 'hotel', 'Check-in is open for Hotel Lumen', 5),
      notification('n1', 'flight', 'LH 100 is delayed by 45 min', 30),
    ];
    const read = new Set<string>();
    stubFetch((url, init) => {
      const marked = /^\/api\/notifications\/([^/]+)\/read$/.exec(url)?.[1];
      if (init?.method === 'POST' && marked) {
        read.add(marked);
        return { status: 204 };
      }
      if (!url.startsWith('/api/notifications')) return { status: 404, json: {} };
      const now = items.map((item) => (read.has(item.id) ? { ...item, readAt: item.createdAt } : item));
      const unreadCount = now.filter((item) => item.readAt === null).length;
      return { json: { items: now, meta: { totalCount: 2, pageSize: 20, nextCursor: null, unreadCount } } };
    });
    renderApp(<InboxPage />, { url: '/inbox' });
    await screen.findByRole('heading', { level: 2, name: '2 unread' });

    await userEvent.click(screen.getByRole('button', { name: /Mark as read: Check-in is open/ }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Mark as read: LH 100 is delayed/ })).toHaveFocus(),
    );
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: /unread|caught up/ })).toHaveFocus(),
    );
    expect(screen.queryByRole('button', { name: /Mark as read/ })).toBeNull();
  });

  it('moves focus to the count after Mark all as read, which then says all is read', async () => {
    const items = [
      notification('n2', 'hotel', 'Check-in is open for Hotel Lumen', 5),
      notification('n1', 'flight', 'LH 100 is delayed by 45 min', 30),
    ];
    let allRead = false;
    stubFetch((url, init) => {
      if (init?.method === 'POST' && url === '/api/notifications/read-all') {
        allRead = true;
        return { json: { updatedCount: 2 } };
      }
      if (!url.startsWith('/api/notifications')) return { status: 404, json: {} };
      const now = items.map((item) => (allRead ? { ...item, readAt: item.createdAt } : item));
      const unreadCount = allRead ? 0 : 2;
      return { json: { items: now, meta: { totalCount: 2, pageSize: 20, nextCursor: null, unreadCount } } };
    });
    renderApp(<InboxPage />, { url: '/inbox' });
    await screen.findByRole('heading', { level: 2, name: '2 unread' });

    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: /caught up/ })).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });
});
