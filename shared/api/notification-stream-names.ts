/**
 * The browser-facing events of GET /api/notifications/stream (docs/decisions.md, "Notification
 * stream"), by name, without the schemas: the SPA reads the stream without loading zod (the BFF checked
 * every event against notification-stream-events.ts before sending it).
 * Every event has a JSON `data:` line; `notification` events carry `id:` = notification id, so a native
 * EventSource resumes with Last-Event-ID after any drop.
 */
export const NOTIFICATION_STREAM_EVENT_NAMES = {
  /** A notification the browser has not had from this stream before. */
  notification: 'notification',
  /** The traveler's upstream link: `live`, or `connecting`/`reconnecting` (a quiet indicator). */
  status: 'status',
  /** Continuity cannot be proven: refetch the inbox list (GET /api/notifications). */
  resync: 'resync',
  /** The session ended (logout, back-channel logout, expiry): the stream closes; do not reconnect. */
  sessionEnded: 'session-ended',
  /** The server is going away: the stream closes; reconnect (EventSource does, after `retry`). */
  reconnect: 'reconnect',
} as const;
