// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { InboxPage } from './inbox-page.tsx';
import { renderApp } from '../../test-support/render-app.tsx';
import { aNotification } from '../../test-support/a-notification.ts';
import { stubFetch } from '../../test-support/stub-fetch.ts';

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
});
