import { z } from 'zod';

/**
 * What one tab posts on the notification channel (notification-channel.ts) to the others. A tab checks
 * each message it hears: the posting tab may run an older or newer version of the app.
 */
export const NotificationChannelMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('toasted'), travelerId: z.string(), id: z.string() }),
  z.object({ kind: z.literal('read-state-changed') }),
  // A tab began signing out, or its sign-out failed: until it says "signed-out", a session that ends
  // under the other tabs ended by that sign-out.
  z.object({ kind: z.literal('signing-out') }),
  z.object({ kind: z.literal('sign-out-failed') }),
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
