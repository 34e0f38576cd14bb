import { expect, test } from './fixtures.ts';
import {
  inboxCard,
  raiseDelay,
  recordToasts,
  simulateDelay,
  toastFor,
  toastsShown,
  unreadOnBell,
  unreadOnServer,
} from './support/notifications.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { PHONE } from './support/tags.ts';

test.describe('notifications', () => {
  test(
    'a delay raised by the simulator appears live in the inbox and as one toast',
    { tag: PHONE },
    async ({ signedInPage: page, context, admin, traveler }) => {
      await recordToasts(context);
      await page.goto('/inbox');
      await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();

      const raised = await raiseDelay(admin, traveler.id);
      await expect(inboxCard(page, raised.title)).toHaveCount(1);
      await expect(toastFor(page, raised.title)).toHaveCount(1);

      // A later notification has come through the same stream: any duplicate of the first would be here by
      // now. The toast may have gone by itself meanwhile, so the toasts shown are counted, not those left.
      const later = await raiseDelay(admin, traveler.id, 'Later');
      await expect(inboxCard(page, later.title)).toHaveCount(1);
      await expect(inboxCard(page, raised.title)).toHaveCount(1);
      expect(await toastsShown([page], raised.title)).toBe(1);
    },
  );

  test('the browser asks for the live stream at low priority, behind the page’s own data', async ({
    signedInPage: page,
    context,
  }) => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const priorities = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', ({ request }) => {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith('/api/')) priorities.set(pathname, request.initialPriority);
    });
    await page.goto('/inbox');
    await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    expect(priorities.get('/api/notifications/stream')).toBe('Low');
    expect(priorities.get('/api/notifications')).toBe('High');
    await cdp.detach();
  });

  test('what the traveler did not come for is asked for once the page has shown its own content', async ({
    signedInPage: page,
  }) => {
    // When the page asks for each API path first, on the page's own clock (that of Paint Timing).
    await page.addInitScript(() => {
      const askedAt: Record<string, number> = {};
      Object.assign(window, { askedAt });
      const fetchOfPage = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        askedAt[url.pathname] ??= performance.now();
        return fetchOfPage(input, init);
      };
    });
    // The profile is the page's own: its dates and prices are written in the profile's locale.
    const later = ['/api/notifications/stream', '/api/notifications', '/api/app/update-check'];
    await page.goto('/trips');
    await expect(page.getByRole('heading', { level: 1, name: 'Trips' })).toBeVisible();
    const timings = () =>
      page.evaluate(() => ({
        askedAt: (window as unknown as { askedAt: Record<string, number> }).askedAt,
        firstContentfulPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      }));
    await expect
      .poll(async () => {
        const { askedAt } = await timings();
        return later.filter((path) => !(path in askedAt));
      })
      .toEqual([]);
    const { askedAt, firstContentfulPaint } = await timings();
    expect(firstContentfulPaint).toBeDefined();
    const painted = firstContentfulPaint ?? 0;
    // The session, which every page's loader asks for before it draws, comes first; the rest waits.
    expect(askedAt['/api/session']).toBeLessThan(painted);
    for (const path of later) expect(askedAt[path], path).toBeGreaterThan(painted);
  });

  test('with two tabs open, each inbox shows a new notification once and only one tab toasts it', async ({
    signedInPage: first,
    context,
    admin,
    traveler,
  }) => {
    // Toasts leave by themselves: the toasts each tab showed are counted, whether still there or gone.
    await recordToasts(context);
    await first.goto('/inbox');
    const second = await context.newPage();
    await second.goto('/inbox');
    const tabs = [first, second];
    for (const tab of tabs) await expect(tab.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();

    const raised = await raiseDelay(admin, traveler.id);
    await expect(inboxCard(first, raised.title)).toHaveCount(1);
    await expect(inboxCard(second, raised.title)).toHaveCount(1);
    await expect.poll(() => toastsShown(tabs, raised.title)).toBe(1);

    const later = await raiseDelay(admin, traveler.id, 'Later');
    for (const tab of tabs) await expect(inboxCard(tab, later.title)).toHaveCount(1);
    for (const tab of tabs) await expect(inboxCard(tab, raised.title)).toHaveCount(1);
    expect(await toastsShown(tabs, raised.title)).toBe(1);
  });

  test(
    'the notification’s link opens the segment page with the new time beside the old one',
    { tag: PHONE },
    async ({ page, signIn, admin, traveler }) => {
      await signIn({ returnTo: '/inbox' });
      await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
      const { notification, segment } = await simulateDelay(admin, traveler.id, 45);

      // Whether it came live or not (covered above), the inbox as loaded now lists it.
      await page.reload();
      await demoControlsInPlace(page);
      // The app writes the delay in its own words, beginning with the flight's number.
      const card = inboxCard(page, `${segment.serviceNumber} is delayed by`).first();
      await card.getByRole('link', { name: 'View trip details' }).click();

      await expect(page).toHaveURL(`/trips/${notification.tripId}/segment/${notification.segmentId}`);
      await expect(page.getByText('Delayed', { exact: true })).toBeVisible();
      const schedule = page.getByRole('region', { name: 'Schedule' });
      const wall = (iso: string) => iso.slice(11, 16);
      const [hours = '0', minutes = '00'] = wall(segment.estimatedDeparture).split(':');
      const hour12 = ((Number(hours) + 11) % 12) + 1;
      const newTime = new RegExp(`(${hours}|${Number(hours)}|${hour12}|0${hour12}):${minutes}`);
      await expect(schedule.getByRole('insertion').first()).toContainText(newTime);
      await expect(schedule.getByRole('deletion').first()).toBeVisible();
      expect(segment.delayMinutes).toBeGreaterThanOrEqual(45);
    },
  );

  test('marking a notification read lowers the unread badge and the inbox count', async ({
    signedInPage: first,
    context,
    admin,
    traveler,
  }) => {
    await first.goto('/inbox');
    const second = await context.newPage();
    await second.goto('/bookings');
    const raised = await raiseDelay(admin, traveler.id);
    await expect(inboxCard(first, raised.title)).toHaveCount(1);

    // The count as the server has it now, once a fresh load shows it.
    await first.reload();
    await expect(inboxCard(first, raised.title)).toHaveCount(1);
    const before = await unreadOnServer(first);
    expect(before).toBeGreaterThan(0);
    await expect.poll(() => unreadOnBell(first)).toBe(before);
    await second.reload();
    await expect.poll(() => unreadOnBell(second)).toBe(before);

    await inboxCard(first, raised.title)
      .getByRole('button', { name: /Mark as read/ })
      .click();
    await expect.poll(() => unreadOnBell(first)).toBe(before - 1);
    await expect(
      first.getByRole('heading', {
        level: 2,
        name: before - 1 > 0 ? `${before - 1} unread` : 'All caught up',
      }),
    ).toBeVisible();
    // Another page of the app, loaded now, agrees.
    await second.reload();
    await expect.poll(() => unreadOnBell(second)).toBe(before - 1);
    await expect(inboxCard(first, raised.title).getByRole('button', { name: /Mark as read/ })).toHaveCount(0);
  });
});
