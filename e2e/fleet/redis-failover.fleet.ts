import { expect, type BrowserContext, type Page } from '@playwright/test';
import { Redis } from 'ioredis';
import { submitIdentitySignIn } from '../fixtures.ts';
import { test } from './fleet-test.ts';
import {
  allArrivedLive,
  LoadLoop,
  finishFaultRun,
  printFigures,
  recordLiveNotifications,
} from '../support/fault-load.ts';
import { raiseDelay, type RaisedNotification } from '../support/notifications.ts';
import { ensureTraveler } from '../support/shared-travelers.ts';
import { FLEET_ORIGIN, FLEET_STATE_FILE } from '../support/stack.ts';
import { journeyTraveler, type TestTraveler } from '../support/test-travelers.ts';
import { failoverWindowMs } from '../../scripts/fleet-redis-config.ts';
import { readFleetState, type FleetState } from '../../scripts/fleet-state.ts';
import { expectPageAt, withAnyQuery } from '../support/page-location.ts';

/**
 * The fleet's Redis primary is killed (SIGKILL) while a traveler has three tabs live through the front, a
 * load loop of their requests runs and notifications are raised before, during and after: the Sentinels
 * promote the replica, the instances find it, requests fail only inside the failover window, and every
 * notification reaches every tab live exactly once.
 */

function sentinel(state: FleetState): Redis {
  return new Redis({
    host: '127.0.0.1',
    port: state.redis.sentinelPorts[0],
    password: state.redis.env.REDIS_SENTINEL_PASSWORD,
    lazyConnect: true,
  });
}

/** The port of the primary the Sentinels name now. */
async function primaryPort(state: FleetState): Promise<number> {
  const client = sentinel(state);
  try {
    const [, port] = (await client.call(
      'SENTINEL',
      'get-master-addr-by-name',
      state.redis.env.REDIS_SENTINEL_NAME as string,
    )) as [string, string];
    return Number(port);
  } finally {
    client.disconnect();
  }
}

/** Whether the primary has a replica in sync that the Sentinels could promote. */
async function replicaInSync(state: FleetState): Promise<boolean> {
  const client = sentinel(state);
  try {
    const replicas = (await client.call(
      'SENTINEL',
      'replicas',
      state.redis.env.REDIS_SENTINEL_NAME as string,
    )) as string[][];
    return replicas.some((fields) => {
      const field = (name: string) => fields[fields.indexOf(name) + 1];
      return field('flags') === 'slave' && field('master-link-status') === 'ok';
    });
  } finally {
    client.disconnect();
  }
}

/** The process id of the Redis node on `port`, as it tells it. */
async function redisPid(state: FleetState, port: number): Promise<number> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    username: state.redis.env.REDIS_USERNAME,
    password: state.redis.env.REDIS_PASSWORD,
    lazyConnect: true,
  });
  try {
    const info = await client.info('server');
    return Number(/^process_id:(\d+)/m.exec(info)?.[1]);
  } finally {
    client.disconnect();
  }
}

/** Whether the instance on `port`, asked directly, reads the traveler's session from Redis. */
async function instanceReadsSession(context: BrowserContext, port: number): Promise<boolean> {
  const cookie = (await context.cookies(FLEET_ORIGIN))
    .map(({ name, value }) => `${name}=${value}`)
    .join('; ');
  const response = await context.request.get(`http://127.0.0.1:${port}/api/session`, {
    headers: { cookie, 'x-requested-with': 'wayfare' },
    failOnStatusCode: false,
  });
  return response.ok() && ((await response.json()) as { authenticated?: boolean }).authenticated === true;
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

test('the Redis primary killed: the replica promoted, failures only inside the failover window, every notification once in every tab', async ({
  browser,
  admin,
}) => {
  // A bound for a run that hangs: the failover, the catch-up and the killed node's return as a replica.
  test.setTimeout(120_000);
  const state = await readFleetState(FLEET_STATE_FILE);
  const bound = failoverWindowMs(state.redis.downAfterMs);
  // A failover of an earlier run has its former primary back as a replica first.
  await expect.poll(() => replicaInSync(state), { timeout: 30_000 }).toBe(true);

  const traveler = journeyTraveler(test.info().workerIndex, 100 + test.info().repeatEachIndex);
  // Created reading the app in English (a generated traveler's locale varies).
  await ensureTraveler(admin, traveler, { locale: 'en-GB' });
  const context = await browser.newContext();
  await recordLiveNotifications(context);
  const tabs = await threeLiveTabs(context, traveler);
  const load = new LoadLoop(context.request);
  const raised: RaisedNotification[] = [];
  const raise = async (label: string) => raised.push(await raiseDelay(admin, traveler.id, label));

  await load.answered(12);
  for (const label of ['Before', 'Before']) await raise(label);
  await expect.poll(() => allArrivedLive(tabs, raised)).toBe(true);

  const oldPrimary = await primaryPort(state);
  const pid = await redisPid(state, oldPrimary);
  load.phase('failover');
  const killedAt = Date.now();
  process.kill(pid, 'SIGKILL');
  // Raised while the primary is gone and while the Sentinels elect its successor.
  await raise('During');
  await load.answered(6);
  await raise('During');
  // Generous waits: the figures below hold the claim (every failure inside the window, none after it).
  await expect.poll(() => primaryPort(state), { timeout: 30_000 }).not.toBe(oldPrimary);
  const promotedAt = Date.now();
  await raise('During');
  for (const port of state.bffPorts) {
    await expect.poll(() => instanceReadsSession(context, port), { timeout: 30_000 }).toBe(true);
  }
  const recoveredAt = Date.now();
  load.phase('after');

  for (const label of ['After', 'After']) await raise(label);
  await load.answered(24);
  const { arrived, figures, notifications } = await finishFaultRun(load, tabs, raised);
  const since = (at: number) => at - killedAt;
  const firstFailure = Math.min(...figures.failures.map((failure) => failure.startedAt));
  const lastFailure = Math.max(...figures.failures.map((failure) => failure.endedAt));
  printFigures('redis primary killed', figures, notifications, {
    'down-after-milliseconds': `${state.redis.downAfterMs}`,
    'failover window':
      figures.failures.length === 0
        ? 'no request failed'
        : `requests failed from ${since(firstFailure)} ms to ${since(lastFailure)} ms after the kill (bound ${bound} ms)`,
    'replica promoted': `${since(promotedAt)} ms after the kill; both instances reading sessions after ${since(recoveredAt)} ms`,
  });

  for (const failure of figures.failures) {
    expect(
      since(failure.endedAt),
      `${failure.what} (${failure.outcome}) failed before the kill`,
    ).toBeGreaterThanOrEqual(0);
    expect(
      since(failure.endedAt),
      `${failure.what} (${failure.outcome}) failed outside the failover window`,
    ).toBeLessThanOrEqual(bound);
  }
  expect(figures.byPhase.after?.failed ?? 0, 'requests failed after the failover').toBe(0);
  expect(arrived, 'every notification reached every tab live').toBe(true);
  expect(notifications.live).toEqual({ once: raised.length * tabs.length, twice: 0, never: 0 });
  expect(notifications.inbox).toEqual({ once: raised.length * tabs.length, twice: 0, never: 0 });

  // The fleet serves the next journey as it served this one: the killed node back, as the new primary's
  // replica, in sync.
  await expect.poll(() => replicaInSync(state), { timeout: 30_000 }).toBe(true);
  await context.close();
});
