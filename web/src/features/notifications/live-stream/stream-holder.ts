import type { SseMessage } from '#shared/sse.ts';
import type { LiveConnectionState } from '../live-connection-store.ts';
import type { NotificationChannelMessage } from '../notification-channel.ts';

/** The part of the Web Locks API the election takes. */
export interface StreamLocks {
  request(name: string, options: LockOptions, callback: LockGrantedCallback<unknown>): Promise<unknown>;
}

/** The notification channel between this browser's tabs (notification-channel.ts in the browser). */
export interface TabChannel {
  post: (message: NotificationChannelMessage) => void;
  subscribe: (listener: (message: NotificationChannelMessage) => void) => () => void;
}

export interface StreamHolderOptions {
  travelerId: string;
  /** This tab's id, as the BFF and the other tabs know it. */
  tab: string;
  /** Web Locks where the browser can share one stream (with BroadcastChannel), else undefined. */
  locks: StreamLocks | undefined;
  channel: TabChannel;
  signal: AbortSignal;
  /** Whether this tab is on screen. */
  onScreen: () => boolean;
  /** Tells the BFF whether the stream is on screen in any tab. */
  reportVisibility: (visibility: { tab: string; visible: boolean }) => void;
  /** The connection's state as this tab knows it, for a tab that asks. */
  connection: () => LiveConnectionState;
  /** An event of the stream, relayed by the tab that reads it. */
  onRelayedEvent: (message: SseMessage) => void;
  /** The connection's state, relayed by the tab that reads the stream. */
  onRelayedState: (state: LiveConnectionState) => void;
}

export interface StreamHolder {
  /** Whether one tab reads the stream for the others (else each tab reads its own). */
  readonly shared: boolean;
  /** Runs `read` in this tab when it is elected (at once when the stream is not shared). */
  elect: (read: () => Promise<void>) => void;
  /** Whether any of the traveler's tabs is on screen, as far as this tab knows. */
  anyTabOnScreen: () => boolean;
  /** Hands an event this tab read to the other tabs. */
  relayEvent: (message: SseMessage) => void;
  /** Hands this tab's connection state to the other tabs, when it holds the stream. */
  relayState: (state: LiveConnectionState) => void;
  /** This tab's visibility changed. */
  visibilityChanged: () => void;
  /** This tab goes away: it is no longer on screen for the holder's count. */
  pageHidden: () => void;
  stop: () => void;
}

/**
 * One notification stream per browser: the tab that holds a Web Lock named for the traveler reads the
 * stream and relays every event and connection state to the other tabs over the notification channel;
 * when it closes, the lock passes to another tab, which opens the stream with the last event id it heard
 * and catches up. The holder tells the BFF whether the stream is on screen in any tab; the others tell the
 * holder. A browser with six HTTP/1.1 connections per host is never frozen by its own tabs. Without Web
 * Locks or BroadcastChannel each tab reads its own stream and reports its own visibility.
 */
export function createStreamHolder(options: StreamHolderOptions): StreamHolder {
  const { travelerId, tab, locks, channel } = options;
  const shared = locks !== undefined;
  let holdsStream = false;
  /** The holder's view of the other tabs: whether each is on screen. */
  const otherTabsVisible = new Map<string, boolean>();
  const anyTabOnScreen = () => options.onScreen() || [...otherTabsVisible.values()].some(Boolean);
  const following = () => shared && !holdsStream;

  function reportVisibility() {
    if (following()) return;
    options.reportVisibility({ tab, visible: anyTabOnScreen() });
  }
  function tellHolderVisibility() {
    channel.post({ kind: 'tab-visibility', travelerId, tab, visible: options.onScreen() });
  }

  const stopHearing = channel.subscribe((message) => {
    if (!shared || !('travelerId' in message) || message.travelerId !== travelerId) return;
    if (message.kind === 'stream-event' && !holdsStream) {
      options.onRelayedEvent({ event: message.event, data: message.data, id: message.id });
    } else if (message.kind === 'connection-state' && !holdsStream) {
      options.onRelayedState(message.state);
    } else if (message.kind === 'tab-visibility' && holdsStream) {
      otherTabsVisible.set(message.tab, message.visible);
      reportVisibility();
      // A tab that just opened learns how the stream is doing from its first word to the holder.
      channel.post({ kind: 'connection-state', travelerId, state: options.connection() });
    } else if (message.kind === 'stream-holder-changed' && !holdsStream) {
      tellHolderVisibility();
    }
  });

  return {
    shared,
    elect: (read) => {
      if (!locks) {
        void read();
        return;
      }
      // Held until this tab closes or stops listening; then the next tab waiting for it takes over.
      locks
        .request(`wayfare:notification-stream:${travelerId}`, { signal: options.signal }, async () => {
          holdsStream = true;
          channel.post({ kind: 'stream-holder-changed', travelerId });
          await read();
        })
        .catch(() => undefined);
      tellHolderVisibility();
    },
    anyTabOnScreen,
    relayEvent: (message) => {
      if (!shared) return;
      channel.post({
        kind: 'stream-event',
        travelerId,
        event: message.event ?? 'message',
        data: message.data,
        ...(message.id === undefined ? {} : { id: message.id }),
      });
    },
    relayState: (state) => {
      if (shared && holdsStream) channel.post({ kind: 'connection-state', travelerId, state });
    },
    visibilityChanged: () => {
      if (following()) tellHolderVisibility();
      else reportVisibility();
    },
    pageHidden: () => {
      if (following()) channel.post({ kind: 'tab-visibility', travelerId, tab, visible: false });
    },
    stop: stopHearing,
  };
}
