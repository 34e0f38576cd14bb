import { checkedOnArrival } from '../../lib/checked-on-arrival.ts';
import type { NotificationChannelMessage } from './notification-channel-message.ts';
import { closeChannel, openChannel } from './notification-channel.ts';

type Listener = (message: NotificationChannelMessage) => void;

const listeners = new Set<Listener>();

// The schema loads with the first message another tab posts: a traveler with one tab never loads it.
const deliver = checkedOnArrival(
  async () => (await import('./notification-channel-message.ts')).NotificationChannelMessageSchema,
  (event: MessageEvent<unknown>) => event.data,
  (message: NotificationChannelMessage) => {
    for (const listener of listeners) listener(message);
  },
);

/**
 * Hears what the other tabs post on the notification channel, each message checked first; returns the
 * unsubscribe. Apart from posting (notification-channel.ts), so that a tab that only posts (signing out,
 * marking read) loads no schema.
 */
export function subscribeToOtherTabs(listener: Listener): () => void {
  openChannel(deliver);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) closeChannel();
  };
}
