// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { focusManager } from '@tanstack/react-query';
import { LiveNotifications } from './live-notifications.tsx';
import { InboxBell } from './inbox/inbox-bell.tsx';
import { InboxPage } from './inbox/inbox-page.tsx';
import { LiveIndicator } from './live-indicator.tsx';
import { renderApp, sse } from '../../test-support/render-app.tsx';
import { stubFetch, type StubbedResponse } from '../../test-support/stub-fetch.ts';

const travelerId = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';

function notification(id: string, title: string, readAt: string | null = null) {
  return {
    id,
    tripId: 'trip-1',
    segmentId: 'segment-1',
    eventType: 'SEGMENT_DELAYED',
    severity: 'warning',
    title,
    body: `${title}: new departure 19:10`,
    deepLink: 'wayfare://trips/trip-1/segment/segment-1',
    channel: 'push',
    dispatchedAt: '2026-11-22T10:00:00Z',
    readAt,
    isDedupSkipped: false,
    deliveryStatus: 'delivered',
    createdAt: new Date().toISOString(),
  };
}

function page(items: unknown[], unreadCount: number) {
  return { items, meta: { totalCount: items.length, pageSize: 20, nextCursor: null, unreadCount } };
}

beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stubStream(chunks: string[], inbox: StubbedResponse = { json: page([], 0) }) {
  return stubFetch((url) => {
    if (url.startsWith('/api/notifications/stream/visibility')) return { status: 204 };
    if (url.startsWith('/api/notifications/stream')) return { chunks, open: true };
    if (url.startsWith('/api/notifications')) return inbox;
    return { status: 204 };
  });
}

describe('LiveNotifications', () => {
  it('puts a live notification in the inbox, counts it on the bell and toasts it once, politely', async () => {
    const delayed = notification('n-1', 'AU 1555 is delayed by 45 min');
    stubStream([
      sse('status', { state: 'live' }),
      sse('notification', { notification: delayed, alert: true, replay: false }, 'n-1'),
      sse('notification', { notification: delayed, alert: true, replay: false }, 'n-1'),
    ]);
    renderApp(
      <>
        <InboxBell />
        <LiveNotifications travelerId={travelerId} />
      </>,
    );
    expect(await screen.findByRole('link', { name: 'Inbox, 1 unread' })).toBeInTheDocument();
    const toastRegion = await screen.findByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toastRegion).toHaveTextContent('AU 1555 is delayed by 45 min'));
    expect(screen.getAllByRole('button', { name: /^Dismiss/ })).toHaveLength(1);
    // Announced politely, the travel API's words marked as the English they are within the app's words.
    const announced = screen.getByText(/^AU 1555 is delayed by 45 min\./);
    expect(announced).toHaveAttribute('lang', 'en');
    expect(announced.closest('[aria-live="polite"]')).toHaveTextContent(
      /^New notification: AU 1555 is delayed by 45 min\./,
    );
    expect(screen.getByRole('link', { name: 'View trip details' })).toHaveAttribute(
      'href',
      '/trips/trip-1/segment/segment-1',
    );
  });

  it('does not toast a notification another tab already toasted, nor a replay, nor one meant for another tab', async () => {
    localStorage.setItem(`wayfare:toasted:${travelerId}`, JSON.stringify([['n-1', Date.now()]]));
    stubStream([
      sse(
        'notification',
        { notification: notification('n-1', 'Seen elsewhere'), alert: true, replay: false },
        'n-1',
      ),
      sse(
        'notification',
        { notification: notification('n-2', 'Replayed'), alert: true, replay: true },
        'n-2',
      ),
      sse(
        'notification',
        { notification: notification('n-3', 'Other tab alerts'), alert: false, replay: false },
        'n-3',
      ),
    ]);
    renderApp(
      <>
        <InboxBell />
        <LiveNotifications travelerId={travelerId} />
      </>,
    );
    expect(await screen.findByRole('link', { name: 'Inbox, 3 unread' })).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { name: /^Dismiss/ })).toHaveLength(0);
  });

  it('refetches the inbox when the server asks for a resync', async () => {
    const fetchMock = stubStream([sse('resync', { reason: 'gap' })]);
    renderApp(
      <>
        <InboxBell />
        <LiveNotifications travelerId={travelerId} />
      </>,
    );
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.filter(([url]) => url === '/api/notifications').length,
      ).toBeGreaterThanOrEqual(2),
    );
  });
});

describe('LiveNotifications catching up as the stream becomes live', () => {
  const inboxFetches = (fetchMock: ReturnType<typeof stubStream>) =>
    fetchMock.mock.calls.filter(([url]) => url === '/api/notifications').length;

  it('refetches the inbox once when the stream first becomes live, covering what arrived before it', async () => {
    let raisedMeanwhile = false;
    const fetchMock = stubFetch((url) => {
      if (url.startsWith('/api/notifications/stream/visibility')) return { status: 204 };
      if (url.startsWith('/api/notifications/stream')) {
        // Raised after the inbox loaded, before the stream was live: the stream never carries it.
        raisedMeanwhile = true;
        return { chunks: [sse('status', { state: 'live' }), sse('status', { state: 'live' })], open: true };
      }
      if (url.startsWith('/api/notifications')) {
        return raisedMeanwhile
          ? { json: page([notification('n-9', 'Gate changed to C4')], 1) }
          : { json: page([], 0) };
      }
      return { status: 204 };
    });
    renderApp(
      <>
        <InboxBell />
        <LiveNotifications travelerId={travelerId} />
      </>,
    );
    expect(await screen.findByRole('link', { name: 'Inbox, 1 unread' })).toBeInTheDocument();
    expect(inboxFetches(fetchMock)).toBe(2);
  });

  it('refetches the inbox again when a dropped stream is live once more', async () => {
    let streams = 0;
    const fetchMock = stubFetch((url) => {
      if (url.startsWith('/api/notifications/stream/visibility')) return { status: 204 };
      if (url.startsWith('/api/notifications/stream')) {
        streams += 1;
        // The first connection ends at once; the second stays open.
        return { chunks: [sse('status', { state: 'live' })], open: streams > 1 };
      }
      if (url.startsWith('/api/notifications')) return { json: page([], 0) };
      return { status: 204 };
    });
    renderApp(
      <>
        <InboxBell />
        <LiveNotifications travelerId={travelerId} />
      </>,
    );
    await waitFor(() => expect(streams).toBe(2));
    // The first load, then one catch-up as each of the two connections becomes live.
    await waitFor(() => expect(inboxFetches(fetchMock)).toBe(3));
  });
});

describe('read state across tabs', () => {
  it('refetches the bell and list when another tab marks a notification read', async () => {
    let unread = 1;
    const fetchMock = stubFetch((url) => {
      if (url.startsWith('/api/notifications/stream/visibility')) return { status: 204 };
      if (url.startsWith('/api/notifications/stream')) return { chunks: [], open: true };
      if (url.startsWith('/api/notifications')) {
        return {
          json: page(
            [notification('n-1', 'Gate changed to B12', unread ? null : '2026-11-22T11:00:00Z')],
            unread,
          ),
        };
      }
      return { status: 204 };
    });
    renderApp(
      <>
        <InboxBell />
        <LiveNotifications travelerId={travelerId} />
      </>,
    );
    expect(await screen.findByRole('link', { name: 'Inbox, 1 unread' })).toBeInTheDocument();

    // Another tab marks it read on the server and says so on the notification channel.
    unread = 0;
    const otherTab = new BroadcastChannel('wayfare:notifications');
    otherTab.postMessage({ kind: 'read-state-changed' });
    otherTab.close();
    expect(await screen.findByRole('link', { name: 'Inbox' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/notifications')).toHaveLength(2);
  });

  it('rechecks the bell when the tab comes back to the front, however fresh its data', async () => {
    const fetchMock = stubFetch((url) =>
      url.startsWith('/api/notifications') ? { json: page([], 0) } : { status: 204 },
    );
    renderApp(<InboxBell />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    focusManager.setFocused(undefined);
  });

  it('tells the other tabs when this one marks a notification read', async () => {
    stubFetch((url) => {
      if (url === '/api/notifications/n-1/read') return { status: 204 };
      if (url.startsWith('/api/notifications')) {
        return { json: page([notification('n-1', 'Gate changed to B12')], 1) };
      }
      return { status: 204 };
    });
    const otherTab = new BroadcastChannel('wayfare:notifications');
    const heard = new Promise<unknown>((resolve) =>
      otherTab.addEventListener('message', (event) => resolve(event.data), { once: true }),
    );
    renderApp(<InboxPage />, { url: '/inbox' });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as read: Gate changed to B12' }));
    await expect(heard).resolves.toEqual({ kind: 'read-state-changed' });
    otherTab.close();
  });
});

describe('InboxPage', () => {
  it('lists read and unread notifications and marks one read', async () => {
    let readAt: string | null = null;
    const fetchMock = stubFetch((url, init) => {
      if (url === '/api/notifications/n-1/read' && init.method === 'POST') {
        readAt = '2026-11-22T11:00:00Z';
        return { status: 204 };
      }
      if (url.startsWith('/api/notifications')) {
        const items = [
          notification('n-1', 'Gate changed to B12', readAt),
          // Another segment: updates of one segment fold into one thread (notification-threads.ts).
          { ...notification('n-2', 'Check-in open', '2026-11-21T10:00:00Z'), segmentId: 'segment-2' },
        ];
        return { json: page(items, readAt ? 0 : 1) };
      }
      return { status: 204 };
    });
    renderApp(<InboxPage />, { url: '/inbox' });
    expect(await screen.findByRole('heading', { name: '1 unread' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Unread: Gate changed to B12' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Check-in open' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Unread' }));
    expect(screen.queryByRole('heading', { name: 'Check-in open' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Mark as read: Gate changed to B12' }));
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === '/api/notifications/n-1/read' && init?.method === 'POST',
      ),
    ).toBe(true);
    expect(
      fetchMock.mock.calls.find(([url]) => url === '/api/notifications/n-1/read')?.[1]?.headers,
    ).toMatchObject({
      'X-Requested-With': 'wayfare',
    });
    expect(await screen.findByRole('heading', { name: 'All caught up' })).toBeInTheDocument();
  });
});

describe('InboxPage, Mark all as read', () => {
  it('marks every notification read at once', async () => {
    let allRead = false;
    const fetchMock = stubFetch((url, init) => {
      if (url === '/api/notifications/read-all' && init.method === 'POST') {
        allRead = true;
        return { json: { updatedCount: 2 } };
      }
      if (url.startsWith('/api/notifications')) {
        const readAt = allRead ? '2026-11-22T11:00:00Z' : null;
        const items = [
          notification('n-3', 'AU 1555 is delayed by 1 h 30 min', readAt),
          { ...notification('n-2', 'Gate changed to B12', readAt), segmentId: 'segment-3' },
          { ...notification('n-1', 'Check-in is open', '2026-11-21T10:00:00Z'), segmentId: 'segment-2' },
        ];
        return { json: page(items, allRead ? 0 : 2) };
      }
      return { status: 204 };
    });
    renderApp(<InboxPage />, { url: '/inbox' });
    expect(await screen.findByRole('heading', { name: '2 unread' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/notifications/read-all')).toBe(true);
    expect(await screen.findByRole('heading', { name: 'All caught up' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
  });
});

describe('LiveNotifications and the service worker’s push check', () => {
  it('tells the service worker a notification that arrived live was shown, and one that did not was not', async () => {
    const container = Object.assign(new EventTarget(), { startMessages: vi.fn() });
    vi.stubGlobal(
      'navigator',
      // The browser's language is read for the toasts' dates and times until the profile loads.
      Object.create(navigator, {
        serviceWorker: { value: container },
        language: { value: navigator.language },
      }) as Navigator,
    );
    const ask = (notificationId: string) => {
      const port = { postMessage: vi.fn() };
      container.dispatchEvent(
        Object.assign(new Event('message'), {
          data: { type: 'was-shown-live', notificationId },
          ports: [port],
        }),
      );
      return port.postMessage;
    };
    stubStream([
      sse('status', { state: 'live' }),
      sse(
        'notification',
        { notification: notification('n-1', 'Gate changed'), alert: true, replay: false },
        'n-1',
      ),
    ]);
    renderApp(
      <>
        <InboxBell />
        <LiveNotifications travelerId={travelerId} />
      </>,
    );
    expect(await screen.findByRole('link', { name: 'Inbox, 1 unread' })).toBeInTheDocument();
    // The question's schema loads with the first question: that answer comes once it is in.
    const first = ask('n-1');
    await vi.waitFor(() => expect(first).toHaveBeenCalledWith({ shown: true }));
    expect(ask('n-2')).toHaveBeenCalledWith({ shown: false });
  });
});

describe('LiveNotifications when the browser goes offline', () => {
  it('says it is offline at once, and reconnects as soon as the browser is back online', async () => {
    let online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    let streams = 0;
    stubFetch((url) => {
      if (url.startsWith('/api/notifications/stream/visibility')) return { status: 204 };
      if (url.startsWith('/api/notifications/stream')) {
        streams += 1;
        return { chunks: [sse('status', { state: 'live' })], open: true };
      }
      if (url.startsWith('/api/notifications')) return { json: page([], 0) };
      return { status: 204 };
    });
    renderApp(
      <>
        <LiveIndicator />
        <LiveNotifications travelerId={travelerId} />
      </>,
    );
    expect(await screen.findByText('Live')).toBeInTheDocument();

    online = false;
    window.dispatchEvent(new Event('offline'));
    await waitFor(() => expect(screen.getByText('Offline, will catch up')).toBeInTheDocument());
    expect(streams).toBe(1);

    online = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(streams).toBe(2));
    expect(await screen.findByText('Live')).toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
