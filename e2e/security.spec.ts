import { expect, test } from './fixtures.ts';
import { findExposures, ExposureRecorder } from './support/exposure-scan.ts';
import { inboxCard, raiseDelay } from './support/notifications.ts';
import { APP_ORIGIN } from './support/stack.ts';
import { rateCards, searchStays, stayCards } from './support/stays.ts';
import { isoDateFromToday } from './support/dates.ts';

test.describe('security seen from the browser', () => {
  test('no token or secret reaches any response, cookie, storage entry or script, and the session cookie is HttpOnly', async ({
    page,
    context,
    signIn,
    admin,
    traveler,
  }) => {
    const recorder = new ExposureRecorder(context);

    await page.goto('/');
    await signIn({ returnTo: '/flights' });
    await page.goto(
      `/flights?trip=return&leg=LHR.JFK.${isoDateFromToday(30)}&leg=JFK.LHR.${isoDateFromToday(37)}&adults=1&cabin=economy`,
    );
    await expect(
      page.getByRole('list', { name: 'Flight offers' }).getByRole('article').first(),
    ).toBeVisible();

    await searchStays(page, { city: 'Lisbon', checkInInDays: 30, nights: 2 });
    await stayCards(page).filter({ hasText: 'per night' }).first().getByRole('link').click();
    await expect(rateCards(page).first()).toBeVisible();

    await page.goto('/bookings');
    await expect(page.getByRole('list', { name: 'Bookings' }).getByRole('article').first()).toBeVisible();
    await page.goto('/inbox');
    const raised = await raiseDelay(admin, traveler.id);
    await expect(inboxCard(page, raised.title)).toHaveCount(1);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    const cookies = await context.cookies(APP_ORIGIN);
    const session = cookies.find((cookie) => /wayfare_session$/.test(cookie.name));
    expect(session, 'the session cookie').toBeDefined();
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    const pageCanRead = await page.evaluate(() => document.cookie);
    expect(pageCanRead).not.toContain(session?.value ?? '');

    const items = await recorder.collect(context, [page]);
    expect(items.length).toBeGreaterThan(20);
    expect(recorder.scriptUrls.length).toBeGreaterThan(0);
    for (const url of recorder.scriptUrls) expect(new URL(url).origin, `script ${url}`).toBe(APP_ORIGIN);
    expect(findExposures(items)).toEqual([]);
  });
});
