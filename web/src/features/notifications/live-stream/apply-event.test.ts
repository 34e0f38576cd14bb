// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { Notification } from '#shared/api/notifications.ts';
import { aNotification } from '../../../test-support/a-notification.ts';
import { arrival, clientWithInbox, inboxIds, status } from '../../../test-support/live-stream-fakes.ts';
import { notificationQueries } from '../notification-queries.ts';
import { createEventApplier, type EventApplierOptions } from './apply-event.ts';

function applierFor(overrides: Partial<EventApplierOptions> = {}) {
  const queryClient = clientWithInbox();
  const toasted: Notification[] = [];
  const arrived: Notification[] = [];
  const claimed = new Set<string>();
  const options: EventApplierOptions = {
    queryClient,
    mayToast: () => true,
    claimToast: (id) => {
      const first = !claimed.has(id);
      claimed.add(id);
      return Promise.resolve(first);
    },
    stopped: () => false,
    showToast: (item) => toasted.push(item),
    onArrival: (item) => arrived.push(item),
    onStatus: vi.fn(),
    onSessionEnded: vi.fn(),
    onReconnectAdvice: vi.fn(),
    ...overrides,
  };
  return { applier: createEventApplier(options), queryClient, toasted, arrived, options };
}

describe('applying an event of the notification stream', () => {
  it('puts an arrival in the inbox, tells the app and toasts it once; a replay or an alert for another tab is kept quiet', async () => {
    const { applier, queryClient, toasted, arrived } = applierFor();
    const delayed = aNotification({ id: 'n-1', title: 'AU 1555 is delayed' });
    applier.apply(arrival(delayed));
    applier.apply(arrival(delayed));
    applier.apply(arrival(aNotification({ id: 'n-2' }), { alert: true, replay: true }));
    applier.apply(arrival(aNotification({ id: 'n-3' }), { alert: false, replay: false }));

    expect(inboxIds(queryClient)).toEqual(['n-3', 'n-2', 'n-1']);
    expect(arrived.map((item) => item.id)).toEqual(['n-1', 'n-1', 'n-2', 'n-3']);
    await vi.waitFor(() => expect(toasted.map((item) => item.id)).toEqual(['n-1']));
    expect(applier.lastEventId()).toBe('n-3');
    expect(applier.arrivedLive('n-2')).toBe(true);
    expect(applier.arrivedLive('n-9')).toBe(false);
  });

  it('shows no toast in a tab that may not, nor once the stream has stopped', async () => {
    let stopped = false;
    const quiet = applierFor({ mayToast: () => false });
    quiet.applier.apply(arrival(aNotification({ id: 'n-1' })));
    const late = applierFor({ stopped: () => stopped });
    late.applier.apply(arrival(aNotification({ id: 'n-2' })));
    stopped = true;
    await Promise.resolve();
    await Promise.resolve();
    expect(quiet.toasted).toEqual([]);
    expect(late.toasted).toEqual([]);
    expect(inboxIds(late.queryClient)).toEqual(['n-2']);
  });

  it('catches the inbox up once each time a connection becomes live, and when the server asks', async () => {
    const { applier, queryClient, options } = applierFor();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const read = async () => {
      await Promise.resolve();
      await Promise.resolve();
    };
    applier.apply(status('live'));
    await read();
    applier.apply(status('live'));
    await read();
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenLastCalledWith({ queryKey: notificationQueries.all() });
    // The hub's link to the travel API went away and came back: the same connection is live again.
    applier.apply(status('reconnecting'));
    applier.apply(status('live'));
    await read();
    expect(invalidate).toHaveBeenCalledTimes(2);
    // A reopened connection's first live catches up too.
    applier.streamOpened();
    applier.apply(status('live'));
    await read();
    expect(invalidate).toHaveBeenCalledTimes(3);
    applier.apply({ event: 'resync', data: JSON.stringify({ reason: 'gap' }) });
    await read();
    expect(invalidate).toHaveBeenCalledTimes(4);
    expect(options.onStatus).toHaveBeenNthCalledWith(3, 'reconnecting');
  });

  it('catches up once for a fresh stream’s live and its initial resync, read together, and again for a later reason', async () => {
    const { applier, queryClient } = applierFor();
    let answer: () => void = () => undefined;
    const invalidate = vi
      .spyOn(queryClient, 'invalidateQueries')
      .mockImplementation(() => new Promise<void>((resolve) => (answer = resolve)));
    applier.streamOpened();
    applier.apply(status('live'));
    applier.apply({ event: 'resync', data: JSON.stringify({ reason: 'initial' }) });
    await Promise.resolve();
    await Promise.resolve();
    expect(invalidate).toHaveBeenCalledTimes(1);
    // A reason read once that refetch has started may postdate what it reads: it refetches again.
    applier.apply({ event: 'resync', data: JSON.stringify({ reason: 'gap' }) });
    await Promise.resolve();
    await Promise.resolve();
    expect(invalidate).toHaveBeenCalledTimes(2);
    answer();
  });

  it('keeps an arrival that lands while a catch-up is in flight', async () => {
    const { applier, queryClient } = applierFor();
    let answer: () => void = () => undefined;
    const invalidate = vi
      .spyOn(queryClient, 'invalidateQueries')
      .mockImplementation(() => new Promise<void>((resolve) => (answer = resolve)));
    const caughtUp = applier.catchUp();
    applier.apply(arrival(aNotification({ id: 'n-1' })));
    // The refetch starts once the events read with the reason to catch up have been applied.
    await vi.waitFor(() => expect(invalidate).toHaveBeenCalledTimes(1));
    // The refetch answered with an inbox read before n-1 was raised.
    queryClient.setQueryData(notificationQueries.inbox().queryKey, (data) =>
      data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: [] })) } : data,
    );
    answer();
    await caughtUp;
    expect(inboxIds(queryClient)).toEqual(['n-1']);
  });

  it('ends the session: signed out goes to the start page, expired signs in again; and takes reconnect advice', () => {
    const { applier, options } = applierFor();
    applier.apply({ event: 'session-ended', data: JSON.stringify({ reason: 'logout' }) });
    applier.apply({ event: 'session-ended', data: JSON.stringify({ reason: 'expired' }) });
    applier.apply({ event: 'reconnect', data: JSON.stringify({ retryMs: 2500 }) });
    expect(vi.mocked(options.onSessionEnded).mock.calls).toEqual([[true], [false]]);
    expect(options.onReconnectAdvice).toHaveBeenCalledWith(2500);
  });

  it('lets an event of a shape it does not know pass', () => {
    const { applier, queryClient } = applierFor();
    expect(() => {
      applier.apply({ event: 'notification', data: '{"notification":' });
      applier.apply({ event: 'status', data: JSON.stringify({ state: 'dreaming' }) });
      applier.apply({ event: 'something-new', data: '{}' });
    }).not.toThrow();
    expect(inboxIds(queryClient)).toEqual([]);
  });
});
