import type { Notification } from '#shared/api/notifications.ts';
import type { PageSubject } from '../../lib/shown-on-page.ts';

/** How many toasts wait behind the one on screen; older ones are left to the inbox, which has them all. */
const MAX_WAITING = 3;

/** A segment's schedule: a cancellation is later news of the same thing as a delay. */
const SCHEDULE_EVENTS = new Set(['SEGMENT_DELAYED', 'SEGMENT_CANCELLED']);

/** A check-in opening asks the traveler to act: a trip's page showing the trip does not say it. */
const CALLS_TO_ACTION = new Set(['CHECK_IN_OPEN']);

function bookingReferences(notification: Notification): string[] {
  const facts = notification.facts;
  return [facts?.booking?.reference, facts?.replaced?.reference].filter(
    (reference): reference is string => typeof reference === 'string',
  );
}

/** What a notification is news of: a later one about any of the same things takes its place. */
function subjectsOf(notification: Notification): string[] {
  const references = bookingReferences(notification);
  if (references.length > 0) return references.map((reference) => `booking:${reference}`);
  const about = SCHEDULE_EVENTS.has(notification.eventType) ? 'schedule' : notification.eventType;
  return [`${about}:${notification.tripId}:${notification.segmentId}`];
}

/**
 * The toasts to show, the first on screen and the others waiting their turn. A notification about the
 * same thing as one already there (the cancellation of a booking whose confirmation waits, a delay that
 * grew) takes that one's place; otherwise it waits at the end.
 */
export function enqueueToast(queue: readonly Notification[], arrival: Notification): Notification[] {
  const subjects = new Set(subjectsOf(arrival));
  const same = queue.findIndex((queued) => subjectsOf(queued).some((subject) => subjects.has(subject)));
  if (same >= 0) return queue.map((queued, index) => (index === same ? arrival : queued));
  const [showing, ...waiting] = [...queue, arrival];
  return showing ? [showing, ...waiting.slice(-MAX_WAITING)] : [];
}

/** Whether the page in view already shows what the notification says. */
export function shownOnPage(notification: Notification, subjects: readonly PageSubject[]): boolean {
  return subjects.some((subject) => {
    switch (subject.kind) {
      case 'trip':
        return notification.tripId === subject.tripId && !CALLS_TO_ACTION.has(notification.eventType);
      case 'booking':
        return bookingReferences(notification).includes(subject.reference);
      case 'checkout':
        return notification.eventType === 'BOOKING_CONFIRMED';
    }
  });
}
