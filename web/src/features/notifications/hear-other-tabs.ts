import {
  NotificationChannelMessageSchema,
  type NotificationChannelMessage,
} from './notification-channel-message.ts';
import { closeChannel, openChannel } from './notification-channel.ts';

type Listener = (message: NotificationChannelMessage) => void;

const listeners = new Set<Listener>();

function deliver(event: MessageEvent<unknown>) {
  const message = NotificationChannelMessageSchema.safeParse(event.data);
  if (!message.success) return;
  for (const listener of listeners) listener(message.data);
}

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
