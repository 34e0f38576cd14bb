import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { AdminClient } from './admin-client.ts';

export interface RaisedNotification {
  id: string;
  tripId: string;
  segmentId: string;
  title: string;
  deepLink: string;
}

export interface SimulatedDelay {
  notification: RaisedNotification;
  segment: { estimatedDeparture: string; scheduledDeparture: string; delayMinutes: number };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Raises a SEGMENT_DELAYED with a title no other test uses, so the test can count exactly its own. */
export async function raiseDelay(
  admin: AdminClient,
  travelerId: string,
  label = 'Delay',
): Promise<RaisedNotification> {
  const title = `${label} ${randomUUID().slice(0, 8)}`;
  const { notification } = await admin.post<{ notification: RaisedNotification }>('notifications', {
    traveler: travelerId,
    eventType: 'SEGMENT_DELAYED',
    severity: 'warning',
    title,
    body: 'Your flight leaves later than planned.',
  });
  return notification;
}

/** Runs the event simulator: the segment really is delayed, so its page shows the new time. */
export function simulateDelay(
  admin: AdminClient,
  travelerId: string,
  minutes: number,
): Promise<SimulatedDelay> {
  return admin.post<SimulatedDelay>('simulate', { traveler: travelerId, type: 'SEGMENT_DELAYED', minutes });
}

/** The notification's card in the inbox list. */
export function inboxCard(page: Page, title: string): Locator {
  return page
    .getByRole('list', { name: 'Notifications' })
    .getByRole('article', { name: new RegExp(escapeRegExp(title)) });
}

/** The notification's toast, found by its dismiss button. */
export function toastFor(page: Page, title: string): Locator {
  return page
    .getByRole('region', { name: 'Notifications' })
    .getByRole('button', { name: `Dismiss: ${title}` });
}

/** The unread count the bell announces ("Inbox, 3 unread"), 0 when it says only "Inbox". */
export async function unreadOnBell(page: Page): Promise<number> {
  const bell = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });
  const name = (await bell.textContent()) ?? '';
  return Number(/(\d+) unread/.exec(name)?.[1] ?? 0);
}
