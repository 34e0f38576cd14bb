import { z } from 'zod';
import { plainText } from '../plain-text.ts';
import { NotificationSchema } from '../upstream/notifications.ts';

// The events' names, in a module of their own that the SPA loads without zod.
export { NOTIFICATION_STREAM_EVENT_NAMES } from './notification-stream-names.ts';

export const NotificationStreamNotificationSchema = z.looseObject({
  notification: NotificationSchema,
  /** True on exactly one of the traveler's visible tabs: the one that shows the toast. */
  alert: z.boolean(),
  /** True when re-sent after a Last-Event-ID resume: add to the inbox, no toast. */
  replay: z.boolean(),
});
export type NotificationStreamNotification = z.infer<typeof NotificationStreamNotificationSchema>;

export const NOTIFICATION_STREAM_STATES = ['connecting', 'live', 'reconnecting'] as const;
export const NotificationStreamStateSchema = z.enum(NOTIFICATION_STREAM_STATES);
export type NotificationStreamState = z.infer<typeof NotificationStreamStateSchema>;

export const NotificationStreamStatusSchema = z.looseObject({ state: NotificationStreamStateSchema });
export type NotificationStreamStatus = z.infer<typeof NotificationStreamStatusSchema>;

/**
 * Why a resync is asked for: `initial` (a stream opened without Last-Event-ID, the inbox may be
 * behind), `unknown-last-event-id` (the id is no longer held), `gap` (a catch-up could not reach the
 * last known notification). Open string: more reasons may follow.
 */
export const NOTIFICATION_RESYNC_REASONS = ['initial', 'unknown-last-event-id', 'gap'] as const;
export type NotificationResyncReason = (typeof NOTIFICATION_RESYNC_REASONS)[number];
export const NotificationStreamResyncSchema = z.looseObject({ reason: z.string() });
export type NotificationStreamResync = z.infer<typeof NotificationStreamResyncSchema>;

/** `reason` is `logout`, `backchannel`, `expired`, `refresh_failed` or another reason the sessions report. */
export const NotificationStreamSessionEndedSchema = z.looseObject({ reason: z.string() });
export type NotificationStreamSessionEnded = z.infer<typeof NotificationStreamSessionEndedSchema>;

/** Sent before a graceful shutdown closes the stream; `retryMs` is also sent as the SSE `retry:`. */
export const NotificationStreamReconnectSchema = z.looseObject({ retryMs: z.number().int().min(0) });
export type NotificationStreamReconnect = z.infer<typeof NotificationStreamReconnectSchema>;

/** The tab id the SPA sends on the stream (`?tab=`) and in visibility reports. */
export const TabIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** Query of GET /api/notifications/stream. */
export const NotificationStreamQuerySchema = z.object({
  tab: TabIdSchema.optional(),
  visible: z.enum(['0', '1']).default('0'),
  /** Resume point for fetch-based readers, which cannot set Last-Event-ID on a reconnect by itself. */
  lastEventId: plainText().min(1).max(200).optional(),
});
export type NotificationStreamQuery = z.infer<typeof NotificationStreamQuerySchema>;

/** Body of POST /api/notifications/stream/visibility: the tab became visible or hidden. */
export const NotificationStreamVisibilitySchema = z.object({
  tab: TabIdSchema,
  visible: z.boolean(),
});
export type NotificationStreamVisibility = z.infer<typeof NotificationStreamVisibilitySchema>;

/** Every event of GET /api/notifications/stream by name, for the BFF's OpenAPI document. */
export const NotificationStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('notification'), id: z.string(), data: NotificationStreamNotificationSchema }),
  z.object({ event: z.literal('status'), data: NotificationStreamStatusSchema }),
  z.object({ event: z.literal('resync'), data: NotificationStreamResyncSchema }),
  z.object({ event: z.literal('session-ended'), data: NotificationStreamSessionEndedSchema }),
  z.object({ event: z.literal('reconnect'), data: NotificationStreamReconnectSchema }),
]);
