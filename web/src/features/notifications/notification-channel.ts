import type { NotificationChannelMessage } from './notification-channel-message.ts';

export type { NotificationChannelMessage };

/**
 * The one BroadcastChannel through which this browser's open tabs tell each other about notifications:
 * which tab toasted an arrival, that read state changed (so the others refetch their inbox and bell),
 * that the traveler signed out,
 * and, from the tab holding the browser's one notification stream, what the stream says. A tab holds one
 * channel while anything here listens; a channel never hears its own posts.
 */
const CHANNEL_NAME = 'wayfare:notifications';

let channel: BroadcastChannel | undefined;

/** Opens this tab's channel, if it is not open, with what hears the other tabs' posts (hear-other-tabs.ts). */
export function openChannel(deliver: (event: MessageEvent<unknown>) => void): void {
  if (channel || typeof BroadcastChannel !== 'function') return;
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.addEventListener('message', deliver);
}

/** Closes this tab's channel once nothing here listens any more. */
export function closeChannel(): void {
  channel?.close();
  channel = undefined;
}

/** Tells every other open tab of this browser; a no-op where BroadcastChannel is missing. */
export function postToOtherTabs(message: NotificationChannelMessage): void {
  if (channel) {
    channel.postMessage(message);
    return;
  }
  if (typeof BroadcastChannel !== 'function') return;
  const once = new BroadcastChannel(CHANNEL_NAME);
  once.postMessage(message);
  once.close();
}
