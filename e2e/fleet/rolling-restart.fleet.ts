import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { submitIdentitySignIn } from '../fixtures.ts';
import { test } from './fleet-test.ts';
import {
  allArrivedLive,
  LoadLoop,
  finishFaultRun,
  notificationStreams,
  printFigures,
  recordLiveNotifications,
} from '../support/fault-load.ts';
import { raiseDelay, type RaisedNotification } from '../support/notifications.ts';
import { FLEET, FLEET_ORIGIN } from '../support/stack.ts';
import { journeyTraveler, type TestTraveler } from '../support/test-travelers.ts';
import { expectPageAt, withAnyQuery } from '../support/page-location.ts';

/**
 * The upgrade procedure of docs/scale-out.md under traffic: `npm run fleet:roll` restarts both BFF
 * instances of the fleet in turn while a traveler has three tabs live through the front, a load loop of
 * their requests (session reads, bookings list reads, stay searches) runs, and notifications are raised
 * before, during and after. Not one request fails, the browser's notification stream moves off each
 * instance as it drains, and every notification reaches every tab live exactly once.
 */

/**
 * Runs `npm run fleet:roll` against the journeys' fleet, handing each line it prints to `onLine`; resolves
 * with its output once every instance is back.
 */
function rollFleet(onLine: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const roll = spawn(process.execPath, ['scripts/fleet-roll.ts'], {
      env: { ...process.env, WAYFARE_FLEET_PORT: String(FLEET.frontPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    createInterface({ input: roll.stdout }).on('line', (line) => {
      output += `${line}\n`;
      onLine(line);
    });
    roll.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    roll.on('error', reject);
    roll.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`fleet:roll exited ${code}: ${output}`)),
    );
  });
}

/** Three tabs of one browser, signed in as the traveler, each with the inbox open and live. */
async function threeLiveTabs(context: BrowserContext, traveler: TestTraveler): Promise<Page[]> {
  const first = await context.newPage();
  await first.goto(`/auth/login?returnTo=${encodeURIComponent('/inbox')}`);
  await submitIdentitySignIn(first, traveler);
  await expectPageAt(first, FLEET_ORIGIN, withAnyQuery('/inbox'));
  const tabs = [first, await context.newPage(), await context.newPage()];
  for (const tab of tabs.slice(1)) await tab.goto('/inbox');
  for (const tab of tabs) await expect(tab.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  return tabs;
}

/** At most this many notifications raised before and during the roll: with the two after, within the inbox's first page. */
const MAX_RAISED = 16;
/** Between two steps of the roll, a notification each time the load loop has answered this many more requests. */
const RAISE_EVERY = 25;

test('a rolling restart of both instances under load fails no request and loses or repeats no notification', async ({
  browser,
  admin,
}) => {
  // A bound for a loaded machine, not a speed claim: each instance drains, starts again and becomes ready.
  test.setTimeout(240_000);
  const traveler = journeyTraveler(test.info().workerIndex, 300 + test.info().repeatEachIndex);
  const context = await browser.newContext();
  await recordLiveNotifications(context);
  const tabs = await threeLiveTabs(context, traveler);
  const load = new LoadLoop(context.request);
  const raised: RaisedNotification[] = [];
  const raise = async (label: string) => {
    // A keep-alive connection the travel API closed while it was idle is reset before the request is read:
    // asked once more, on a new connection.
    const notification = await raiseDelay(admin, traveler.id, label).catch((error: unknown) => {
      if (error instanceof Error && error.message.includes('ECONNRESET')) {
        return raiseDelay(admin, traveler.id, label);
      }
      throw error;
    });
    raised.push(notification);
  };

  await load.answered(6);
  for (const label of ['Before', 'Before']) await raise(label);
  await expect.poll(() => allArrivedLive(tabs, raised)).toBe(true);
  const streamsBefore = (await notificationStreams(tabs)).length;

  load.phase('rolling restart');
  // Raised at each step of the roll (an instance starts to drain, is ready, answers through the front
  // again) and, between steps, each time the load loop has answered more requests: a pace tied to what
  // happens, not to the clock, and within the inbox's first page (20) for the counts below.
  let rolled = false;
  let stepTaken: () => void = () => undefined;
  const rolling = rollFleet(() => stepTaken()).finally(() => {
    rolled = true;
    stepTaken();
  });
  while (!rolled && raised.length < MAX_RAISED) {
    const nextStep = new Promise<void>((resolve) => (stepTaken = resolve));
    await raise('During');
    await Promise.race([load.answered(RAISE_EVERY), nextStep]);
  }
  const output = await rolling;
  load.phase('after');
  for (const label of ['After', 'After']) await raise(label);
  await load.answered(12);

  const { arrived, figures, notifications } = await finishFaultRun(load, tabs, raised);
  const streams = await notificationStreams(tabs);
  printFigures('rolling restart', figures, notifications, {
    'notification streams': streams
      .map(({ instance, openedAt, endedAt }) =>
        endedAt === undefined ? `${instance} (open)` : `${instance} (${endedAt - openedAt} ms)`,
      )
      .join(', '),
    'fleet:roll': output.trim().replaceAll('\n', ' | '),
  });

  expect(output).toMatch(/bff-1: answering through the front[^]*bff-2: answering through the front/);
  expect(figures.failures).toEqual([]);
  expect(figures.byPhase['rolling restart']?.sent ?? 0).toBeGreaterThan(0);
  // The browser's stream moved as each instance drained: new streams opened during the roll, and over the
  // journey both instances served one.
  expect(streams.length).toBeGreaterThan(streamsBefore);
  expect(new Set(streams.map((stream) => stream.instance)).size).toBe(2);
  expect(arrived, 'every notification reached every tab live').toBe(true);
  expect(notifications.live).toEqual({ once: raised.length * tabs.length, twice: 0, never: 0 });
  expect(notifications.inbox).toEqual({ once: raised.length * tabs.length, twice: 0, never: 0 });
  // No tab said it had lost its stream: each reconnected quietly and is live.
  for (const tab of tabs) {
    await expect(tab.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    await expect(tab.getByRole('alert')).toHaveCount(0);
  }
  await context.close();
});
