import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fleetControlPath,
  requestFleet,
  requestRoll,
  serveFleetControl,
  type FleetControl,
  type FleetHandlers,
} from './fleet-control.ts';

/** Handlers that refuse what a test does not expect to be asked. */
const unexpected: FleetHandlers = {
  roll: () => Promise.reject(new Error('no roll expected')),
  add: () => Promise.reject(new Error('no add expected')),
  remove: () => Promise.reject(new Error('no remove expected')),
};

let dir: string;
let control: FleetControl | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-control-'));
});

afterEach(async () => {
  await control?.close();
  control = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe("the fleet's control socket (npm run fleet:roll, fleet:add, fleet:remove)", () => {
  it('runs a roll, passing on each line it says, and ends when the roll ends', async () => {
    const socket = path.join(dir, 'fleet.sock');
    control = await serveFleetControl(socket, {
      ...unexpected,
      roll: (say) => {
        say('bff-1: draining, then restarting');
        say('bff-1: ready again');
        return Promise.resolve();
      },
    });
    const lines: string[] = [];
    await requestRoll(socket, (line) => lines.push(line));
    expect(lines).toEqual(['bff-1: draining, then restarting', 'bff-1: ready again']);
  });

  it('says why a roll failed, and refuses a second roll while one is under way', async () => {
    const socket = path.join(dir, 'fleet.sock');
    let finish: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (finish = resolve));
    let rolls = 0;
    control = await serveFleetControl(socket, {
      ...unexpected,
      roll: async (say) => {
        rolls += 1;
        if (rolls === 1) {
          say('bff-1: draining, then restarting');
          await first;
          throw new Error('bff-2 is not running');
        }
      },
    });
    const lines: string[] = [];
    const running = requestRoll(socket, (line) => lines.push(line));
    await expect.poll(() => lines).toEqual(['bff-1: draining, then restarting']);
    await expect(requestRoll(socket, () => undefined)).rejects.toThrow(
      'a rolling restart is already under way',
    );
    finish();
    await expect(running).rejects.toThrow('bff-2 is not running');
    // Once a roll ended, the next one runs.
    await requestRoll(socket, () => undefined);
    expect(rolls).toBe(2);
  });

  it('adds and removes an instance, one change at a time, and refuses a request it does not know', async () => {
    const socket = path.join(dir, 'fleet.sock');
    const asked: string[] = [];
    let finish: () => void = () => undefined;
    const adding = new Promise<void>((resolve) => (finish = resolve));
    control = await serveFleetControl(socket, {
      ...unexpected,
      add: async (say) => {
        asked.push('add');
        say('bff-3: starting');
        await adding;
      },
      remove: (name, say) => {
        asked.push(`remove ${name}`);
        say(`${name}: stopped`);
        return Promise.resolve();
      },
    });
    const lines: string[] = [];
    const added = requestFleet(socket, { kind: 'add' }, (line) => lines.push(line));
    await expect.poll(() => lines).toEqual(['bff-3: starting']);
    await expect(requestFleet(socket, { kind: 'remove', name: 'bff-1' }, () => undefined)).rejects.toThrow(
      'an instance being added is already under way',
    );
    await expect(requestRoll(socket, () => undefined)).rejects.toThrow(
      'an instance being added is already under way',
    );
    finish();
    await added;
    await requestFleet(socket, { kind: 'remove', name: 'bff-1' }, (line) => lines.push(line));
    expect(lines).toEqual(['bff-3: starting', 'bff-1: stopped']);
    expect(asked).toEqual(['add', 'remove bff-1']);
    await expect(
      requestFleet(socket, { kind: 'remove', name: 'bff-1 bff-2' }, () => undefined),
    ).rejects.toThrow(
      'unknown request "remove bff-1 bff-2" (the fleet takes "roll", "add" or "remove <instance>")',
    );
  });

  it('tells an operator with no fleet running how to start one', async () => {
    await expect(requestRoll(path.join(dir, 'none.sock'), () => undefined)).rejects.toThrow(
      /no fleet answers at .*none\.sock: start one with npm run start:fleet, or set WAYFARE_FLEET_PORT/,
    );
  });

  it('names the socket by the front port, one fleet per port', () => {
    expect(fleetControlPath(8443)).toBe(path.join(os.tmpdir(), 'wayfare-fleet-8443.sock'));
    expect(fleetControlPath(9443)).not.toBe(fleetControlPath(8443));
  });
});
