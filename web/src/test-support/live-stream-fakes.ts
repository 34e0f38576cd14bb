import { QueryClient } from '@tanstack/react-query';
import type { Notification } from '#shared/api/notifications.ts';
import type { SseMessage } from '#shared/sse.ts';
import type { StreamEnd } from '../lib/event-stream.ts';
import type { LiveConnectionState } from '../features/notifications/live-connection-store.ts';
import type { NotificationChannelMessage } from '../features/notifications/notification-channel.ts';
import { notificationQueries, type InboxData } from '../features/notifications/notification-queries.ts';
import type { LiveStreamEnvironment } from '../features/notifications/live-stream/live-stream.ts';
import type { ReadStream } from '../features/notifications/live-stream/stream-connection.ts';
import type { StreamLocks, TabChannel } from '../features/notifications/live-stream/stream-holder.ts';

/**
 * Stand-ins for what the live stream takes from the browser, so its tests run in Node: one lock manager
 * and one channel per "browser", streams the test feeds by hand, and pages whose visibility it sets.
 */

export const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';

export const arrival = (item: Notification, flags = { alert: true, replay: false }): SseMessage => ({
  event: 'notification',
  id: item.id,
  data: JSON.stringify({ notification: item, ...flags }),
});
export const status = (state: string): SseMessage => ({ event: 'status', data: JSON.stringify({ state }) });

/** A query client holding an empty inbox, as a page that shows the bell has. */
export function clientWithInbox(): QueryClient {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const empty: InboxData = {
    pages: [{ items: [], meta: { totalCount: 0, pageSize: 20, nextCursor: null, unreadCount: 0 } }],
    pageParams: [null],
  };
  queryClient.setQueryData(notificationQueries.inbox().queryKey, empty);
  return queryClient;
}

export const inboxIds = (queryClient: QueryClient): string[] =>
  queryClient
    .getQueryData<InboxData>(notificationQueries.inbox().queryKey)
    ?.pages.flatMap((page) => page.items.map((item) => item.id)) ?? [];

/** One lock manager for all tabs: a lock goes to the first request, then to the next when released. */
export class FakeLocks implements StreamLocks {
  private readonly held = new Set<string>();
  private readonly waiting = new Map<string, Array<() => void>>();

  request(name: string, options: LockOptions, callback: LockGrantedCallback<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.held.add(name);
        Promise.resolve()
          .then(() => callback({ name, mode: 'exclusive' }))
          .then(resolve, reject)
          .finally(() => {
            this.held.delete(name);
            this.waiting.get(name)?.shift()?.();
          });
      };
      if (!this.held.has(name)) {
        grant();
        return;
      }
      const queue = this.waiting.get(name) ?? [];
      this.waiting.set(name, queue);
      queue.push(grant);
      options.signal?.addEventListener('abort', () => {
        const index = queue.indexOf(grant);
        if (index < 0) return;
        queue.splice(index, 1);
        reject(new Error('aborted'));
      });
    });
  }
}

/** One channel between tabs: a post reaches every other tab's listeners, a moment later, never its own. */
export class FakeBroadcast {
  private readonly tabs = new Set<Set<(message: NotificationChannelMessage) => void>>();

  join(): TabChannel {
    const listeners = new Set<(message: NotificationChannelMessage) => void>();
    this.tabs.add(listeners);
    return {
      post: (message) => {
        for (const other of this.tabs) {
          if (other === listeners) continue;
          queueMicrotask(() => {
            for (const listener of other) listener(message);
          });
        }
      },
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  }
}

export interface FakeStream {
  path: string;
  /** The fetch priority it was opened with. */
  priority: RequestPriority | undefined;
  send: (message: SseMessage) => void;
  end: (end: StreamEnd) => void;
  aborted: () => boolean;
}

/** The BFF's notification stream: every read opens at once and stays open until the test ends it. */
export class FakeStreams {
  readonly opened: FakeStream[] = [];

  readonly read: ReadStream = (path, options) =>
    new Promise<StreamEnd>((resolve) => {
      const { signal } = options;
      const stream: FakeStream = {
        path,
        priority: options.priority,
        send: (message) => options.onEvent(message),
        end: resolve,
        aborted: () => signal?.aborted === true,
      };
      signal?.addEventListener('abort', () => resolve({ kind: 'aborted' }));
      this.opened.push(stream);
      options.onOpen?.(undefined);
    });

  get last(): FakeStream {
    const stream = this.opened.at(-1);
    if (!stream) throw new Error('No stream was opened');
    return stream;
  }
}

/** A tab of the fake browser: its environment and what it did. */
export interface FakeTab {
  environment: LiveStreamEnvironment;
  states: LiveConnectionState[];
  reports: Array<{ tab: string; visible: boolean }>;
  left: string[];
  /** What the tab heard of another tab's sign-out: true when it began, false when it failed. */
  signOutsElsewhere: boolean[];
  delays: number[];
  setOnScreen: (visible: boolean) => void;
  fire: (event: 'visibilitychange' | 'pagehide' | 'offline') => void;
  setOffline: (offline: boolean) => void;
  shownLive: () => (notificationId: string) => boolean;
}

export interface FakeBrowser {
  locks: FakeLocks | undefined;
  broadcast: FakeBroadcast;
  streams: FakeStreams;
  /** Notification ids toasted in any tab (one claim per id across the browser). */
  claimed: Set<string>;
}

export function fakeBrowser({ webLocks = true } = {}): FakeBrowser {
  return {
    locks: webLocks ? new FakeLocks() : undefined,
    broadcast: new FakeBroadcast(),
    streams: new FakeStreams(),
    claimed: new Set(),
  };
}

let tabCount = 0;

export function fakeTab(browser: FakeBrowser, { onScreen = true } = {}): FakeTab {
  tabCount += 1;
  const tabId = `tab${String(tabCount).padStart(6, '0')}`;
  let visible = onScreen;
  let offline = false;
  let shownLive: (notificationId: string) => boolean = () => false;
  const listeners = new Map<string, Set<() => void>>();
  const tab: FakeTab = {
    states: [],
    reports: [],
    left: [],
    signOutsElsewhere: [],
    delays: [],
    setOnScreen: (next) => {
      visible = next;
    },
    fire: (event) => {
      for (const listener of listeners.get(event) ?? []) listener();
    },
    setOffline: (next) => {
      offline = next;
    },
    shownLive: () => shownLive,
    environment: {
      locks: browser.locks,
      channel: browser.broadcast.join(),
      readStream: browser.streams.read,
      waitToReconnect: (delayMs, signal) => {
        tab.delays.push(delayMs);
        return signal.aborted ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, 0));
      },
      reportVisibility: (report) => tab.reports.push(report),
      leave: (target) => tab.left.push(target),
      otherTabSigningOut: (underWay) => tab.signOutsElsewhere.push(underWay),
      loginUrl: () => '/auth/login?returnTo=%2Ftrips',
      toastClaims: () => ({
        claim: (id) => {
          if (browser.claimed.has(id)) return Promise.resolve(false);
          browser.claimed.add(id);
          return Promise.resolve(true);
        },
        close: () => undefined,
      }),
      answerShownLive: (answer) => {
        shownLive = answer;
        return () => {
          shownLive = () => false;
        };
      },
      page: {
        onScreen: () => visible,
        offline: () => offline,
        on: (event, listener) => {
          const set = listeners.get(event) ?? new Set();
          listeners.set(event, set);
          set.add(listener);
          return () => set.delete(listener);
        },
      },
      newTabId: () => tabId,
      setConnectionState: (state) => tab.states.push(state),
    },
  };
  return tab;
}
