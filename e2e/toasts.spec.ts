import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { isoDateFromToday } from './support/dates.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import {
  recordToasts,
  simulateDelay,
  toastsShown,
  unreadOnBell,
  unreadOnServer,
  type SimulatedDelay,
} from './support/notifications.ts';
import { PHONE } from './support/tags.ts';

// The journey opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

/** The most toasts the page has had on screen at once, from the page's first load. */
async function recordToastsAtOnce(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    const record = { most: 0 };
    (window as unknown as { __toastsAtOnce: typeof record }).__toastsAtOnce = record;
    new MutationObserver(() => {
      record.most = Math.max(record.most, document.querySelectorAll('.toast-region .toast').length);
    }).observe(document, { childList: true, subtree: true });
  });
}

function toastsAtOnce(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __toastsAtOnce: { most: number } }).__toastsAtOnce.most);
}

/** Waits until every notification the service holds has reached the page live (the bell counts it). */
async function allArrived(page: Page, atLeast: number): Promise<void> {
  await expect
    .poll(async () => {
      const onServer = await unreadOnServer(page);
      return onServer >= atLeast && (await unreadOnBell(page)) === onServer;
    })
    .toBe(true);
}

test(
  'book, cancel, then news: no toast repeats the page, one toast at a time, and on a phone none over the page',
  { tag: PHONE },
  async ({ page, signIn, admin, traveler }) => {
    await recordToasts(page.context());
    await recordToastsAtOnce(page);
    await signIn({
      returnTo: `/flights?trip=one-way&leg=ZRH.LHR.${isoDateFromToday(150)}&adults=1&cabin=economy`,
    });
    const unreadBefore = await unreadOnServer(page);

    // Booked and cancelled on the booking's own page: the page says both, so no toast says them again.
    const offer = page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first();
    await offer.getByText('Details and booking').click();
    await offer.getByRole('button', { name: /^Book/ }).click();
    await expect(page.getByRole('button', { name: /^Book and pay/ })).toBeEnabled();
    await page.getByRole('button', { name: /^Book and pay/ }).click();
    await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel this booking' }).click();
    await expect(page.getByRole('heading', { name: 'Cancelled' })).toBeVisible();
    await allArrived(page, unreadBefore + 2);
    expect(await toastsShown([page], /./)).toBe(0);

    // Two pieces of news about a flight: the second waits until the first goes.
    const delay = await simulateDelay(admin, traveler.id, 45);
    const { segmentId, tripId } = delay.notification;
    await admin.post('simulate', { traveler: traveler.id, type: 'GATE_CHANGED', segment: segmentId });
    const region = page.getByRole('region', { name: 'Notifications' });
    const toast = region.locator('.toast');
    await expect(toast).toHaveCount(1);
    // Pointed at, it stays: the journey reads it at its own pace.
    await toast.hover();
    await allArrived(page, unreadBefore + 4);
    await expect(toast).toHaveCount(1);
    const first = (await toast.locator('.toast-title').textContent()) ?? '';

    if ((page.viewportSize()?.width ?? 0) < 640) {
      // On a phone it lies over the header, clear of the page under it.
      const header = await page.locator('.site-header').boundingBox();
      const box = await toast.boundingBox();
      expect(box && header && box.y >= 0 && box.y + box.height <= header.y + header.height).toBe(true);
    }

    await toast.getByRole('button', { name: `Dismiss: ${first}` }).click();
    await expect(toast).toHaveCount(1);
    await expect(toast.locator('.toast-title')).not.toHaveText(first);
    await toast.getByRole('button', { name: /^Dismiss: / }).click();
    await expect(toast).toHaveCount(0);
    expect(await toastsShown([page], /./)).toBe(2);
    expect(await toastsAtOnce(page)).toBe(1);

    // The trip's page shows its delay live: a later delay of the same flight is no toast there.
    await page.goto(`/trips/${encodeURIComponent(tripId)}`);
    await demoControlsInPlace(page);
    await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    const later = await admin.post<SimulatedDelay>('simulate', {
      traveler: traveler.id,
      type: 'SEGMENT_DELAYED',
      minutes: 90,
      segment: segmentId,
    });
    await allArrived(page, unreadBefore + 5);
    const hours = Math.floor(later.segment.delayMinutes / 60);
    const minutes = later.segment.delayMinutes % 60;
    const late = minutes > 0 ? `(^|\\D)${hours}\\D+${minutes}\\D* late` : `(^|\\D)${hours}\\D* late`;
    await expect(page.getByText(new RegExp(late)).first()).toBeVisible();
    expect(await toastsShown([page], /./)).toBe(0);
  },
);
