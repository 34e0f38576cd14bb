import type { BOOKING_EVENT_TYPES, NOTIFICATION_EVENT_TYPES } from '#shared/api/notifications.ts';
import type { MessageId } from '../../i18n/i18n.ts';
import type { Translate } from '../../i18n/use-t.ts';

type KnownEventType = (typeof NOTIFICATION_EVENT_TYPES)[number] | (typeof BOOKING_EVENT_TYPES)[number];

/** Every kind the travel API is known to send has a label: a new one fails the typecheck until named. */
const EVENT_LABELS: Record<KnownEventType, MessageId> & Record<string, MessageId | undefined> = {
  SEGMENT_DELAYED: 'inbox.event.SEGMENT_DELAYED',
  SEGMENT_CANCELLED: 'inbox.event.SEGMENT_CANCELLED',
  GATE_CHANGED: 'inbox.event.GATE_CHANGED',
  CHECK_IN_OPEN: 'inbox.event.CHECK_IN_OPEN',
  BOOKING_CONFIRMED: 'inbox.event.BOOKING_CONFIRMED',
  BOOKING_CANCELLED: 'inbox.event.BOOKING_CANCELLED',
  BOOKING_CHANGED: 'inbox.event.BOOKING_CHANGED',
};

/**
 * The kind of travel event a notification tells of, in the interface's language ("Delay", "Gate
 * change"); a kind this version does not know is named from its code.
 */
export function eventLabel(eventType: string, t: Translate): string {
  const id = EVENT_LABELS[eventType];
  return id ? t(id) : eventType.replaceAll('_', ' ').toLowerCase();
}
