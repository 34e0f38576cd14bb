import { expect, test } from './fixtures.ts';
import type { AdminClient } from './support/admin-client.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { raiseDelay } from './support/notifications.ts';
import { travelerState } from './support/shared-travelers.ts';
import { SHARED_TRAVELERS, type TestTraveler } from './support/test-travelers.ts';

/**
 * The fixtures that keep journeys apart: each journey gets a traveler of its own, and a journey that leaves
 * a shared traveler changed fails (e2e/README.md).
 */

test('every journey gets a traveler no other journey has, and runs under the watch of the demo travelers', async ({
  traveler,
  newTraveler,
  sharedTravelers,
}) => {
  const others = [await newTraveler(), await newTraveler()];
  expect(new Set([traveler, ...others].map((one) => one.id)).size).toBe(3);
  for (const shared of SHARED_TRAVELERS) expect([traveler, ...others]).not.toContainEqual(shared);
  expect(sharedTravelers.travelers).toEqual(SHARED_TRAVELERS);
});

/** Waits until the service has delivered the traveler's notifications, which it does after raising them. */
async function delivered(admin: AdminClient, traveler: TestTraveler): Promise<void> {
  await expect
    .poll(async () =>
      (await travelerState(admin, traveler)).tables.notifications?.map((row) => row.delivery_status),
    )
    .not.toContain('pending');
}

/** The same fixtures watching a traveler of the worker's own instead, so changing it disturbs no journey. */
const watchingOwn = test.extend<object, { sharedTravelerList: readonly TestTraveler[] }>({
  sharedTravelerList: [async ({ travelerSource }, use) => use([await travelerSource()]), { scope: 'worker' }],
});

watchingOwn(
  'the watch sees nothing while a traveler only reads, and names each change a journey makes',
  async ({ page, signIn, admin, sharedTravelers }) => {
    const [watched] = sharedTravelers.travelers;
    if (!watched) throw new Error('the watch has no traveler');
    const headers = { 'x-requested-with': 'wayfare' };
    await signIn({ traveler: watched });
    expect(await sharedTravelers.changes()).toEqual([]);

    for (const path of ['/trips', '/bookings', '/profile', '/inbox']) {
      await page.goto(path);
      await demoControlsInPlace(page);
    }
    expect(await sharedTravelers.changes()).toEqual([]);

    const saved = await page.request.patch('/api/profile', { headers, data: { locale: 'es-ES' } });
    expect(saved.ok()).toBe(true);
    const changed = await sharedTravelers.changes();
    expect(changed[0]).toBe(`${watched.name} (${watched.email}) changed:`);
    expect(changed).toContainEqual(
      expect.stringMatching(/^ {2}tables\.travelers\[0\]\.locale: "en-GB" → "es-ES"$/),
    );
    expect(await sharedTravelers.changes()).toEqual([]);

    const raised = await raiseDelay(admin, watched.id, 'Watched');
    await delivered(admin, watched);
    expect(await sharedTravelers.changes()).toContainEqual(
      expect.stringMatching(new RegExp(`^ {2}tables\\.notifications\\[0\\] added: .*"id":"${raised.id}"`)),
    );
    const read = await page.request.post(`/api/notifications/${raised.id}/read`, { headers });
    expect(read.ok()).toBe(true);
    expect(await sharedTravelers.changes()).toContainEqual(
      expect.stringMatching(/^ {2}tables\.notifications\[0\]\.read_at: null → "/),
    );
  },
);

watchingOwn(
  'a journey that leaves a shared traveler changed fails, after it has ended',
  async ({ admin, sharedTravelers }) => {
    // Expected to fail: nothing in the journey does, the automatic check after it finds the notification.
    watchingOwn.fail();
    const [watched] = sharedTravelers.travelers;
    if (!watched) throw new Error('the watch has no traveler');
    await raiseDelay(admin, watched.id, 'Left behind');
    await delivered(admin, watched);
  },
);
