// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export {
  BOOKING_EVENT_TYPES,
  NOTIFICATION_EVENT_TYPES,
  NotificationsPageSchema,
  NotificationsReadAllSchema,
} from '../upstream/notifications.ts';
export type {
  Notification,
  NotificationBookingFacts,
  NotificationFacts,
  NotificationsPage,
} from '../upstream/notifications.ts';
