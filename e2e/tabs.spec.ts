import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { inboxCard, raiseDelay, recordToasts, toastsShown } from './support/notifications.ts';
import { ALONE } from './support/tags.ts';

const isNotificationStream = (request: Request) => request.url().includes('/api/notifications/stream?');

function live(page: Page) {
  return page.getByRole('status').filter({ hasText: /^Live$/ });
}

test(
  'ten tabs share one notification stream: every tab works, each hears a notification once, one toast, and another tab takes over when the holder closes',
  { tag: ALONE },
  async ({ signedInPage: first, context, admin, traveler }) => {
    // The notification streams this browser holds open right now (a stream's request never finishes).
    const open = new Set<Request>();
    context.on('request', (request) => {
      if (isNotificationStream(request)) open.add(request);
    });
    context.on('requestfinished', (request) => open.delete(request));
    context.on('requestfailed', (request) => open.delete(request));
    // Toasts leave by themselves: the toasts the tabs showed are counted, whether still there or gone.
    await recordToasts(context);

    await first.goto('/inbox');
    await expect(live(first)).toBeVisible();
    const tabs = [first];
    for (let index = 1; index < 10; index += 1) {
      const tab = await context.newPage();
      await tab.goto(index % 2 === 0 ? '/inbox' : '/trips');
      tabs.push(tab);
    }
    for (const tab of tabs) {
      await expect(tab.getByRole('heading', { level: 1 })).toBeVisible();
      // Every tab's own calls answer: nothing is queued behind streams.
      expect(await tab.evaluate(async () => (await fetch('/api/session')).status)).toBe(200);
    }
    await expect.poll(() => open.size).toBe(1);
    // The BFF counts one browser stream for this browser (its session), whatever the number of tabs.
    const stats = await first.evaluate(async () => {
      const response = await fetch('/api/notifications/stream/stats', {
        headers: { 'x-requested-with': 'wayfare' },
      });
      return (await response.json()) as { thisBrowser: number };
    });
    expect(stats.thisBrowser).toBe(1);

    const raised = await raiseDelay(admin, traveler.id);
    const inboxTabs = tabs.filter((_tab, index) => index % 2 === 0);
    for (const tab of inboxTabs) await expect(inboxCard(tab, raised.title)).toHaveCount(1);
    await expect.poll(() => toastsShown(tabs, raised.title)).toBe(1);
    // Any second toast would have come with the same relay by now.
    await expect(inboxCard(tabs[2]!, raised.title)).toHaveCount(1);
    expect(await toastsShown(tabs, raised.title)).toBe(1);

    // The first tab holds the stream; closing it hands the stream to another tab within about a second.
    await first.close();
    const remaining = tabs.slice(1);
    await expect.poll(() => open.size, { timeout: 5_000 }).toBe(1);
    await remaining[1]!.bringToFront();
    await expect(live(remaining[1]!)).toBeVisible();
    const after = await raiseDelay(admin, traveler.id, 'After the holder closed');
    for (const tab of remaining.filter((_tab, index) => index % 2 === 1)) {
      await expect(inboxCard(tab, after.title)).toHaveCount(1);
    }
  },
);
