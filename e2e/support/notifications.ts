import { randomUUID } from 'node:crypto';
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
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
  segment: {
    estimatedDeparture: string;
    scheduledDeparture: string;
    delayMinutes: number;
    serviceNumber: string | null;
  };
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

/**
 * Counts, in every page of `context` loaded from now on, each toast shown (by its title), for as long as
 * the page lives. A toast leaves by itself after a while, so "exactly one toast" is read from this record
 * rather than from the toasts still on screen, which a loaded machine may look at after the toast has gone.
 */
export async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: Record<string, number> = {};
    const seen = new WeakSet<Element>();
    (window as unknown as { __toastsShown: Record<string, number> }).__toastsShown = shown;
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('.toast-region .toast')) {
        if (seen.has(toast)) continue;
        seen.add(toast);
        const title = toast.querySelector('.toast-title')?.textContent ?? '';
        shown[title] = (shown[title] ?? 0) + 1;
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/**
 * How many toasts titled `title` (or with a title that `title` matches) the pages have shown so far, gone
 * or not (see recordToasts).
 */
export async function toastsShown(pages: Page[], title: string | RegExp): Promise<number> {
  let count = 0;
  for (const page of pages) {
    const shown = await page.evaluate(
      () => (window as unknown as { __toastsShown?: Record<string, number> }).__toastsShown ?? {},
    );
    for (const [shownTitle, times] of Object.entries(shown)) {
      if (typeof title === 'string' ? shownTitle === title : title.test(shownTitle)) count += times;
    }
  }
  return count;
}

/** How many of the traveler's notifications are unread, as the service counts them. */
export async function unreadOnServer(page: Page): Promise<number> {
  const response = await page.request.get('/api/notifications', {
    headers: { 'x-requested-with': 'wayfare' },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { meta: { unreadCount: number } }).meta.unreadCount;
}

/** The unread count the bell announces ("Inbox, 3 unread"), 0 when it says only "Inbox". */
export async function unreadOnBell(page: Page): Promise<number> {
  const bell = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });
  const name = (await bell.textContent()) ?? '';
  return Number(/(\d+) unread/.exec(name)?.[1] ?? 0);
}
