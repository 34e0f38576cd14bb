import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { inboxCard, raiseDelay, recordToasts, toastsShown } from './support/notifications.ts';
import { STACK_WIDE } from './support/tags.ts';

// The service worker is part of what these journeys prove (e2e/support/browser.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

// Every journey here opens its own first page: signed in, the page starts blank (e2e/fixtures.ts).
test.use({ signedInLanding: null });

async function openLiveInbox(page: Page): Promise<void> {
  await recordToasts(page.context());
  await page.goto('/inbox');
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
}

/**
 * Exactly once in the inbox and one toast, checked again after a later notification came through. The
 * toast may have left by itself while the later one made its way (a reconnect can take seconds): the
 * toasts the page showed are counted, not those still on screen.
 */
async function expectExactlyOnce(page: Page, title: string, later: string): Promise<void> {
  await expect(inboxCard(page, later)).toHaveCount(1);
  await expect(inboxCard(page, title)).toHaveCount(1);
  await expect.poll(() => toastsShown([page], title)).toBe(1);
}

test.describe('notifications after the stream ended', () => {
  test('a notification raised after the travel API ended the stream with done arrives once', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    await openLiveInbox(page);

    // Only this traveler's streams end, so journeys of other travelers run on undisturbed.
    const { ended } = await admin.post<{ ended: number }>('notification-streams/end', {
      travelerId: traveler.id,
    });
    expect(ended).toBeGreaterThan(0);
    const raised = await raiseDelay(admin, traveler.id, 'After done');
    await expect(inboxCard(page, raised.title)).toHaveCount(1);

    const later = await raiseDelay(admin, traveler.id, 'Later');
    await expectExactlyOnce(page, raised.title, later.title);
  });
});

test.describe('notifications while the browser is offline', () => {
  test('a notification raised while the browser was offline arrives once when it is back online', async ({
    signedInPage: page,
    context,
    admin,
    traveler,
  }) => {
    await openLiveInbox(page);
    const status = page
      .getByRole('status')
      .filter({ hasText: /^(Live|Connecting…|Reconnecting…|Offline.*)$/ });

    await context.setOffline(true);
    await expect(status).toHaveText('Offline, will catch up');
    const raised = await raiseDelay(admin, traveler.id, 'While offline');

    await context.setOffline(false);
    await expect(status).toHaveText('Live');
    await expect(inboxCard(page, raised.title)).toHaveCount(1);

    const later = await raiseDelay(admin, traveler.id, 'Later');
    await expect(inboxCard(page, later.title)).toHaveCount(1);
    await expect(inboxCard(page, raised.title)).toHaveCount(1);
  });
});

test.describe('notifications while the stream is down', { tag: STACK_WIDE }, () => {
  test('a notification raised while the travel API keeps dropping the stream arrives once', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    await openLiveInbox(page);
    await admin.put('faults', { dropStreamAfterEvents: 0 });

    const raised = await raiseDelay(admin, traveler.id, 'Dropped');
    await expect(inboxCard(page, raised.title)).toHaveCount(1, { timeout: 30_000 });
    await admin.delete('faults');

    const later = await raiseDelay(admin, traveler.id, 'Later');
    await expectExactlyOnce(page, raised.title, later.title);
  });

  test('a notification the multi-worker gap kept off the stream still arrives once', async ({
    signedInPage: page,
    admin,
    traveler,
  }) => {
    await openLiveInbox(page);
    await admin.put('faults', { multiWorkerGapShare: 1 });

    const raised = await raiseDelay(admin, traveler.id, 'Gapped');
    await expect(inboxCard(page, raised.title)).toHaveCount(1, { timeout: 30_000 });
    await admin.delete('faults');

    const later = await raiseDelay(admin, traveler.id, 'Later');
    await expectExactlyOnce(page, raised.title, later.title);
  });
});
