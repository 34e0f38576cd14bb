// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import type { Notification } from '#shared/api/notifications.ts';
import { aNotification } from '../../../test-support/a-notification.ts';
import {
  arrival,
  clientWithInbox,
  fakeBrowser,
  fakeTab,
  inboxIds,
  status,
  TRAVELER,
  type FakeBrowser,
  type FakeTab,
} from '../../../test-support/live-stream-fakes.ts';
import { startLiveStream } from './live-stream.ts';

const running: Array<() => void> = [];
afterEach(() => {
  for (const stop of running.splice(0)) stop();
});

function open(browser: FakeBrowser, tab: FakeTab = fakeTab(browser)) {
  const queryClient = clientWithInbox();
  const toasted: Notification[] = [];
  const arrived: Notification[] = [];
  const stop = startLiveStream({
    travelerId: TRAVELER,
    queryClient,
    environment: tab.environment,
    showToast: (item) => toasted.push(item),
    onArrival: (item) => arrived.push(item),
  });
  running.push(stop);
  return { tab, queryClient, toasted, arrived, stop };
}

const eventually = (assertion: () => void) => expect.poll(() => (assertion(), true)).toBe(true);

describe('one live notification stream per browser', () => {
  it('is read by one tab, which relays each event and its connection to the others', async () => {
    const browser = fakeBrowser();
    const first = open(browser);
    const second = open(browser);
    await eventually(() => expect(browser.streams.opened).toHaveLength(1));
    const stream = browser.streams.last;
    expect(stream.path).toMatch(/^\/api\/notifications\/stream\?tab=tab\d+&visible=1$/);
    stream.send(status('live'));
    stream.send(arrival(aNotification({ id: 'n-1' })));

    for (const reader of [first, second]) {
      await eventually(() => expect(inboxIds(reader.queryClient)).toEqual(['n-1']));
      expect(reader.arrived.map((item) => item.id)).toEqual(['n-1']);
      await eventually(() => expect(reader.tab.states.at(-1)).toBe('live'));
    }
    // Both tabs are on screen and hear the alert; one of them shows it.
    await eventually(() =>
      expect([...first.toasted, ...second.toasted].map((item) => item.id)).toEqual(['n-1']),
    );
    // The tab that reads answers the service worker for its own page, as does the other.
    expect(first.tab.shownLive()('n-1')).toBe(true);
    expect(second.tab.shownLive()('n-1')).toBe(true);
    expect(browser.streams.opened).toHaveLength(1);
  });

  it('passes to another tab when the reading tab closes, which resumes from the last event it heard', async () => {
    const browser = fakeBrowser();
    const first = open(browser);
    const second = open(browser);
    await eventually(() => expect(browser.streams.opened).toHaveLength(1));
    browser.streams.last.send(arrival(aNotification({ id: 'n-7' })));
    await eventually(() => expect(inboxIds(second.queryClient)).toEqual(['n-7']));

    first.stop();
    await eventually(() => expect(browser.streams.opened).toHaveLength(2));
    expect(browser.streams.opened[0]?.aborted()).toBe(true);
    expect(browser.streams.last.path).toContain(`tab=${second.tab.environment.newTabId()}`);
    expect(browser.streams.last.path).toContain('lastEventId=n-7');
  });

  it("tells the BFF the stream is on screen while any of the browser's tabs is", async () => {
    const browser = fakeBrowser();
    const reader = open(browser, fakeTab(browser, { onScreen: false }));
    await eventually(() => expect(browser.streams.opened).toHaveLength(1));
    expect(browser.streams.last.path).toContain('visible=0');
    browser.streams.last.send(status('live'));
    const other = open(browser, fakeTab(browser, { onScreen: true }));
    await eventually(() => expect(reader.tab.reports.at(-1)?.visible).toBe(true));
    // The new tab hears how the stream is doing from the reading tab.
    await eventually(() => expect(other.tab.states).toEqual(['connecting', 'live']));

    other.tab.setOnScreen(false);
    other.tab.fire('visibilitychange');
    await eventually(() => expect(reader.tab.reports.at(-1)?.visible).toBe(false));
    reader.tab.setOnScreen(true);
    reader.tab.fire('visibilitychange');
    expect(reader.tab.reports.at(-1)?.visible).toBe(true);
    // Only the reading tab reports to the BFF.
    expect(other.tab.reports).toEqual([]);
  });

  it('is read in each tab where the browser has no Web Locks', async () => {
    const browser = fakeBrowser({ webLocks: false });
    const first = open(browser);
    const second = open(browser);
    await eventually(() => expect(browser.streams.opened).toHaveLength(2));
    browser.streams.opened[0]?.send(arrival(aNotification({ id: 'n-1' })));
    expect(inboxIds(first.queryClient)).toEqual(['n-1']);
    expect(inboxIds(second.queryClient)).toEqual([]);
  });

  it('leaves the pages when another tab signs out, or when the session ends', async () => {
    const browser = fakeBrowser();
    const reader = open(browser);
    await eventually(() => expect(browser.streams.opened).toHaveLength(1));
    browser.broadcast.join().post({ kind: 'signed-out' });
    await eventually(() => expect(reader.tab.left).toEqual(['/']));
    expect(browser.streams.last.aborted()).toBe(true);

    const expired = fakeBrowser();
    const ending = open(expired);
    await eventually(() => expect(expired.streams.opened).toHaveLength(1));
    expired.streams.last.send({ event: 'session-ended', data: JSON.stringify({ reason: 'expired' }) });
    expect(ending.tab.left).toEqual(['/auth/login?returnTo=%2Ftrips']);
    expect(expired.streams.last.aborted()).toBe(true);
  });

  it('hears another tab begin signing out, and fail to', async () => {
    const browser = fakeBrowser();
    const reader = open(browser);
    await eventually(() => expect(browser.streams.opened).toHaveLength(1));
    const other = browser.broadcast.join();
    other.post({ kind: 'signing-out' });
    other.post({ kind: 'sign-out-failed' });
    await eventually(() => expect(reader.tab.signOutsElsewhere).toEqual([true, false]));
    expect(reader.tab.left).toEqual([]);
    expect(browser.streams.last.aborted()).toBe(false);
  });

  it('catches the inbox up when another tab changes read state', async () => {
    const browser = fakeBrowser();
    const reader = open(browser);
    await eventually(() => expect(browser.streams.opened).toHaveLength(1));
    const caughtUp = new Promise<void>((resolve) => {
      reader.queryClient.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'invalidate') resolve();
      });
    });
    browser.broadcast.join().post({ kind: 'read-state-changed' });
    await caughtUp;
  });
});
