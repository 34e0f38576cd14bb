import { expect, type APIRequestContext } from '@playwright/test';
import { test } from './fleet-test.ts';
import {
  allArrivedLive,
  liveInboxTabs,
  LoadLoop,
  finishFaultRun,
  printFigures,
  recordLiveNotifications,
} from '../support/fault-load.ts';
import { raiseDelay, type RaisedNotification } from '../support/notifications.ts';
import { answeringPort, FLEET, FLEET_STATE_FILE } from '../support/stack.ts';
import { journeyTraveler } from '../support/test-travelers.ts';
import { fleetControlPath, requestFleet, type FleetRequest } from '../../scripts/fleet-control.ts';
import { readFleetState } from '../../scripts/fleet-state.ts';

/**
 * The procedure of docs/scale-out.md for adding and removing an instance, under traffic: while a traveler
 * has three tabs live through the front, a load loop of their requests runs (session reads, bookings list
 * reads, stay searches) and delays are raised to them, `npm run fleet:add` starts a third instance and
 * reloads nginx with it in the upstream list, then `npm run fleet:remove -- bff-1` reloads nginx without
 * one of the first two and drains it. Then the fleet is put back as it was (bff-1 added again, bff-3
 * removed), also under the load. Not one request fails, and every notification reaches every tab live
 * exactly once.
 */

/** The instances of the fleet as this journey has changed it (bff-1 and bff-2 at start). */
const instances = new Set(['bff-1', 'bff-2']);

/** Asks the fleet for a change (as `npm run fleet:add` and `fleet:remove` do); answers every line it said. */
async function changeFleet(request: FleetRequest): Promise<string[]> {
  const lines: string[] = [];
  await requestFleet(fleetControlPath(FLEET.frontPort), request, (line) => lines.push(line));
  if (request.kind === 'remove') instances.delete(request.name);
  else instances.add(/^(bff-\d+): ready/m.exec(lines.join('\n'))?.[1] ?? '');
  return lines;
}

// The journeys after this one run on the same fleet: whatever happened here, it ends with bff-1 and bff-2.
test.afterEach(async () => {
  if (!instances.has('bff-1')) await changeFleet({ kind: 'add' });
  for (const name of [...instances]) {
    if (name !== 'bff-1' && name !== 'bff-2') await changeFleet({ kind: 'remove', name });
  }
});

/** The front's instances after a change, as the fleet's "front reloaded" line names them. */
function frontList(lines: string[]): string | undefined {
  return lines.map((line) => /^front reloaded in [\d.]+ s: (.*)$/.exec(line)?.[1]).find(Boolean);
}

/** The port of the instance that answered a session read through the front. */
async function sessionReadPort(request: APIRequestContext): Promise<number> {
  const response = await request.get('/api/session', { headers: { 'x-requested-with': 'wayfare' } });
  return answeringPort(response.headers());
}

test('nginx reloaded with an instance added, then one removed: no request fails, every notification once in every tab', async ({
  browser,
  admin,
}) => {
  // A bound for a loaded machine, not a speed claim: two instances start and two drain.
  test.setTimeout(300_000);
  const original = await readFleetState(FLEET_STATE_FILE);
  expect(original.bffPorts).toHaveLength(2);

  const traveler = journeyTraveler(test.info().workerIndex, 200 + test.info().repeatEachIndex);
  const context = await browser.newContext();
  await recordLiveNotifications(context);
  const tabs = await liveInboxTabs(context, traveler);
  const load = new LoadLoop(context.request);
  const raised: RaisedNotification[] = [];
  const raise = async (label: string) => raised.push(await raiseDelay(admin, traveler.id, label));
  /** Runs one change of the fleet in phase `phase`, raising a delay while it runs. */
  const change = async (phase: string, request: FleetRequest) => {
    load.phase(phase);
    const changing = changeFleet(request);
    await raise(phase);
    const lines = await changing;
    await load.answered(6);
    await raise(phase);
    return lines;
  };

  await load.answered(9);
  await raise('Before');
  await expect.poll(() => allArrivedLive(tabs, raised)).toBe(true);

  const added = await change('third added', { kind: 'add' });
  expect(frontList(added)).toMatch(/^bff-1 \(port \d+\), bff-2 \(port \d+\), bff-3 \(port \d+\)$/);
  const third = (await readFleetState(FLEET_STATE_FILE)).bffPorts[2];
  // The front sends requests to the new instance.
  await expect.poll(() => sessionReadPort(context.request)).toBe(third);

  const removed = await change('bff-1 removed', { kind: 'remove', name: 'bff-1' });
  expect(frontList(removed)).toBe(`bff-2 (port ${original.bffPorts[1]}), bff-3 (port ${third})`);
  expect(removed.at(-1)).toMatch(/^bff-1: stopped after/);

  // The fleet as it was for the journeys after this one: bff-1 again, without bff-3.
  const readded = await change('bff-1 added again', { kind: 'add' });
  expect(frontList(readded)).toMatch(/^bff-1 \(port \d+\), bff-2 \(port \d+\), bff-3 \(port \d+\)$/);
  const restored = await change('bff-3 removed', { kind: 'remove', name: 'bff-3' });
  expect(frontList(restored)).toMatch(/^bff-1 \(port \d+\), bff-2 \(port \d+\)$/);
  expect(restored.at(-1)).toMatch(/^bff-3: stopped after/);
  load.phase('after');
  await raise('After');
  await load.answered(9);

  const { arrived, figures, notifications } = await finishFaultRun(load, tabs, raised);
  const fleet = (await readFleetState(FLEET_STATE_FILE)).bffPorts;
  printFigures('front reload', figures, notifications, {
    'fleet changes': [...added, ...removed, ...readded, ...restored].join('; '),
  });

  expect(fleet).toHaveLength(2);
  expect(fleet[1]).toBe(original.bffPorts[1]);
  expect(figures.failures, 'requests failed').toEqual([]);
  expect(figures.sent).toBeGreaterThan(30);
  expect(arrived, 'every notification reached every tab live').toBe(true);
  expect(notifications.live).toEqual({ once: raised.length * tabs.length, twice: 0, never: 0 });
  expect(notifications.inbox).toEqual({ once: raised.length * tabs.length, twice: 0, never: 0 });
  // The tabs are live and said nothing went wrong.
  for (const tab of tabs) {
    await expect(tab.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    await expect(tab.getByRole('alert')).toHaveCount(0);
  }
  await context.close();
});
