import { z } from 'zod';

/**
 * The one BroadcastChannel through which this browser's open tabs tell each other about notifications:
 * which tab toasted an arrival, that read state changed (so the others refetch their inbox and bell),
 * that the traveler signed out,
 * and, from the tab holding the browser's one notification stream, what the stream says. A tab holds one
 * channel while anything here listens; a channel never hears its own posts.
 */
const CHANNEL_NAME = 'wayfare:notifications';

export const NotificationChannelMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('toasted'), travelerId: z.string(), id: z.string() }),
  z.object({ kind: z.literal('read-state-changed') }),
  // A tab signed out: every other tab leaves the traveler's pages and forgets what it kept of them.
  z.object({ kind: z.literal('signed-out') }),
  // From the one tab that holds the browser's notification stream to the others: each event it reads,
  // and the state of its connection.
  z.object({
    kind: z.literal('stream-event'),
    travelerId: z.string(),
    event: z.string(),
    data: z.string(),
    id: z.string().optional(),
  }),
  z.object({
    kind: z.literal('connection-state'),
    travelerId: z.string(),
    state: z.enum(['connecting', 'live', 'reconnecting', 'offline']),
  }),
  // From the other tabs to the holder: whether each is on screen (the stream is visible if any tab is).
  z.object({
    kind: z.literal('tab-visibility'),
    travelerId: z.string(),
    tab: z.string(),
    visible: z.boolean(),
  }),
  // A tab took the stream over: the others tell it whether they are on screen.
  z.object({ kind: z.literal('stream-holder-changed'), travelerId: z.string() }),
]);
export type NotificationChannelMessage = z.infer<typeof NotificationChannelMessageSchema>;

type Listener = (message: NotificationChannelMessage) => void;

const listeners = new Set<Listener>();
let channel: BroadcastChannel | undefined;

function deliver(event: MessageEvent<unknown>) {
  const message = NotificationChannelMessageSchema.safeParse(event.data);
  if (!message.success) return;
  for (const listener of listeners) listener(message.data);
}

/** Hears what the other tabs post; returns the unsubscribe. */
export function subscribeToOtherTabs(listener: Listener): () => void {
  if (!channel && typeof BroadcastChannel === 'function') {
    channel = new BroadcastChannel(CHANNEL_NAME);
    channel.addEventListener('message', deliver);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && channel) {
      channel.close();
      channel = undefined;
    }
  };
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
