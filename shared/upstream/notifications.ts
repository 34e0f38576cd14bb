import { z } from 'zod';
import { plainText } from '../plain-text.ts';
import { MoneySchema } from './flights.ts';
import { SegmentSchema } from './trips.ts';

/**
 * Kinds of travel event. The spec names only SEGMENT_DELAYED and leaves the enumeration open, so the
 * field stays an open string; these are the values this service emits (docs/decisions.md).
 */
export const NOTIFICATION_EVENT_TYPES = [
  'SEGMENT_DELAYED',
  'SEGMENT_CANCELLED',
  'GATE_CHANGED',
  'CHECK_IN_OPEN',
] as const;
export type KnownNotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

/**
 * Kinds of booking event: a booking made or cancelled through the booking operations, or made to replace
 * another (docs/decisions.md).
 */
export const BOOKING_EVENT_TYPES = ['BOOKING_CONFIRMED', 'BOOKING_CANCELLED', 'BOOKING_CHANGED'] as const;
export type BookingEventType = (typeof BOOKING_EVENT_TYPES)[number];

export const NOTIFICATION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type KnownNotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

/** The channel the notification was dispatched on besides the in-app inbox. */
export const NOTIFICATION_CHANNELS = ['push', 'in_app'] as const;
export type KnownNotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * pending -> delivered | failed on the push channel; skipped when the push was deduplicated
 * (isDedupSkipped); in_app notifications are delivered when persisted.
 */
export const NOTIFICATION_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;
export type KnownNotificationDeliveryStatus = (typeof NOTIFICATION_DELIVERY_STATUSES)[number];

const isoTimestamp = z.iso.datetime({ offset: true });

/** A booking event's booking, as values. */
export const NotificationBookingFactsSchema = z.looseObject({
  reference: z.string(),
  /** `flight` or `stay`; the set is open. */
  kind: z.string(),
  /** A flight's cities in the order it reaches them, its origin first (a return ends where it began); a stay's city. */
  cities: z.array(z.string()),
  /**
   * Each of `cities` by language, index for index (`{ en: 'London', es: 'Londres' }`; additive), when the
   * service knows any of their names.
   */
  cityNames: z.array(z.record(z.string(), z.string())).optional(),
  /** A stay's hotel; null for a flight. */
  propertyName: z.string().nullable(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  totalPrice: MoneySchema,
  paymentMethod: z.looseObject({ brand: z.string(), last4: z.string() }).nullable(),
  /** What a cancellation refunded; null for a confirmation. */
  refund: MoneySchema.nullable(),
});
export type NotificationBookingFacts = z.infer<typeof NotificationBookingFactsSchema>;

/**
 * What a notification tells of, as values (additive, docs/decisions.md): the title and body say it in
 * English, and a client writes it in its traveler's language from these. Each part is there when the event
 * has it.
 */
export const NotificationFactsSchema = z.looseObject({
  /** The segment as the event left it (new times, gate, status). */
  segment: SegmentSchema.optional(),
  /** The segment's delay and gate before the event. */
  previous: z.looseObject({ delayMinutes: z.number().int(), gate: z.string().nullable() }).optional(),
  booking: NotificationBookingFactsSchema.optional(),
  /** The booking a rebooking replaced, as its cancellation left it (with its refund). */
  replaced: NotificationBookingFactsSchema.optional(),
});
export type NotificationFacts = z.infer<typeof NotificationFactsSchema>;

/** NotificationOut: one in-app notification, as listed and as sent on the notification stream. */
export const NotificationSchema = z.looseObject({
  id: z.string().min(1),
  tripId: z.string().min(1),
  segmentId: z.string().min(1),
  eventType: z.string().min(1),
  severity: z.string().min(1),
  title: z.string(),
  body: z.string(),
  deepLink: z.string(),
  channel: z.string().min(1),
  dispatchedAt: isoTimestamp,
  readAt: isoTimestamp.nullable(),
  isDedupSkipped: z.boolean(),
  deliveryStatus: z.string().min(1),
  createdAt: isoTimestamp,
  /** The event as values (additive); null for a notification written as text alone. */
  facts: NotificationFactsSchema.nullable().optional(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NOTIFICATIONS_DEFAULT_LIMIT = 20;
export const NOTIFICATIONS_MAX_LIMIT = 100;

const booleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Query of GET /v1/me/notifications: `before` is the opaque cursor from a previous meta.nextCursor. */
export const NotificationsQuerySchema = z.object({
  before: plainText().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_MAX_LIMIT).default(NOTIFICATIONS_DEFAULT_LIMIT),
  unreadOnly: booleanQuery.default(false),
});
export type NotificationsQuery = z.infer<typeof NotificationsQuerySchema>;

/** meta of a cursor-paginated list: the offset page meta with nextCursor in place of nextOffset. */
export const NotificationsMetaSchema = z.looseObject({
  totalCount: z.number().int().min(0),
  pageSize: z.number().int().min(0),
  nextCursor: z.string().nullable(),
  unreadCount: z.number().int().min(0),
});
export type NotificationsMeta = z.infer<typeof NotificationsMetaSchema>;

/** Response of GET /v1/me/notifications, newest first. */
export const NotificationsPageSchema = z.looseObject({
  items: z.array(NotificationSchema),
  meta: NotificationsMetaSchema,
});
export type NotificationsPage = z.infer<typeof NotificationsPageSchema>;

/** Response of POST /v1/me/notifications/read-all. */
export const NotificationsReadAllSchema = z.looseObject({
  updatedCount: z.number().int().min(0),
});
export type NotificationsReadAll = z.infer<typeof NotificationsReadAllSchema>;

/** Events of GET /v1/me/notifications/stream. */
export const NOTIFICATION_STREAM_EVENTS = { notification: 'notification', done: 'done' } as const;

/** Data of the stream's `done` event: an empty object (additive fields tolerated). */
export const NotificationStreamDoneSchema = z.looseObject({});

/** The push channel: what the service POSTs, signed, to the app's push webhook. */
export const PushWebhookPayloadSchema = z.looseObject({
  type: z.literal('notification.push'),
  travelerId: z.string().min(1),
  notification: NotificationSchema,
});
export type PushWebhookPayload = z.infer<typeof PushWebhookPayloadSchema>;

/** The consumer slug the service signs its push webhook calls with. */
export const PUSH_WEBHOOK_CONSUMER = 'travel-booking-service';
