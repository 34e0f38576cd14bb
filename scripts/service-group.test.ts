import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort, portAnswers, restartDelayMs, ServiceGroup, type Service } from './service-group.ts';

const root = path.resolve(import.meta.dirname, '..');

/** A service that listens on its port until it is killed. */
async function listener(name: string): Promise<Service> {
  const port = await freePort();
  return {
    name,
    args: ['-e', `require('node:net').createServer().listen(${port}, '127.0.0.1')`],
    port,
    env: {},
  };
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const groups: ServiceGroup[] = [];
afterEach(async () => {
  await Promise.all(groups.splice(0).map((group) => group.stopAll()));
});

/** A supervised group whose back-off is 100 ms per attempt in a row, recording what it says. */
function supervisedGroup(stableAfterMs = 60_000) {
  const lines: string[] = [];
  const stopped: string[] = [];
  const group = new ServiceGroup(root, (name) => stopped.push(name), {
    restartDelayMs: (attempt) => attempt * 100,
    stableAfterMs,
    log: (line) => lines.push(line),
  });
  groups.push(group);
  return { group, lines, stopped };
}

describe('the supervisor of a local fleet', () => {
  it('restarts a service that died, waiting longer each time in a row, while the others keep running', async () => {
    const { group, lines, stopped } = supervisedGroup();
    const [bff, other] = [await listener('bff-1'), await listener('bff-2')];
    await group.start(bff);
    await group.start(other);
    const otherPid = group.pid('bff-2');

    for (const attempt of [1, 2]) {
      const pid = group.pid('bff-1');
      process.kill(pid as number, 'SIGKILL');
      await vi.waitFor(() => expect(lines).toContain(`bff-1 is back on port ${bff.port}.`));
      lines.splice(lines.indexOf(`bff-1 is back on port ${bff.port}.`), 1);
      expect(lines).toContain(
        `bff-1 exited (SIGKILL); restarting it in ${attempt / 10} s (attempt ${attempt}), the others keep serving.`,
      );
      expect(group.pid('bff-1')).not.toBe(pid);
      expect(await portAnswers(bff.port)).toBe(true);
    }
    expect(group.pid('bff-2')).toBe(otherPid);
    expect(alive(otherPid)).toBe(true);
    expect(stopped).toEqual([]);
  });

  it('counts a crash after a stable run as the first in a row again', async () => {
    const { group, lines } = supervisedGroup(0);
    const bff = await listener('bff-1');
    await group.start(bff);
    for (let round = 0; round < 2; round += 1) {
      process.kill(group.pid('bff-1') as number, 'SIGKILL');
      await vi.waitFor(() =>
        expect(lines.filter((line) => line.includes('is back'))).toHaveLength(round + 1),
      );
    }
    expect(lines.filter((line) => line.includes('(attempt 1)'))).toHaveLength(2);
  });

  it('waits at least the least delay a service asks for before restarting it', async () => {
    const { group, lines } = supervisedGroup();
    const node = { ...(await listener('redis-primary')), minRestartDelayMs: 300 };
    await group.start(node);
    process.kill(group.pid(node.name) as number, 'SIGKILL');
    await vi.waitFor(() => expect(lines).toContain(`redis-primary is back on port ${node.port}.`));
    expect(lines[0]).toBe(
      'redis-primary exited (SIGKILL); restarting it in 0.3 s (attempt 1), the others keep serving.',
    );
  });

  it('stops every service when told to stop, and restarts none of them', async () => {
    const { group, lines } = supervisedGroup();
    const services = [await listener('redis'), await listener('bff-1'), await listener('nginx')];
    for (const service of services) await group.start(service);
    const pids = services.map((service) => group.pid(service.name));

    await group.stopAll();
    for (const pid of pids) expect(alive(pid)).toBe(false);
    for (const service of services) expect(await portAnswers(service.port)).toBe(false);
    expect(lines).toEqual([]);
  });

  it('stops the services in the reverse order of their first start, even after one was restarted', async () => {
    const { group, lines } = supervisedGroup();
    const stops = path.join(await mkdtemp(path.join(tmpdir(), 'stops-')), 'order');
    const noting = async (name: string): Promise<Service> => {
      const service = await listener(name);
      const note = `require('node:fs').appendFileSync(${JSON.stringify(stops)}, '${name}\\n')`;
      return {
        ...service,
        args: ['-e', `${service.args[1]}; process.on('SIGTERM', () => { ${note}; process.exit(0); })`],
      };
    };
    const services = [await noting('redis'), await noting('bff-1'), await noting('nginx')];
    for (const service of services) await group.start(service);
    process.kill(group.pid('redis') as number, 'SIGKILL');
    await vi.waitFor(() => expect(lines).toContain(`redis is back on port ${services[0]!.port}.`));

    await group.stopAll();
    expect((await readFile(stops, 'utf8')).trim().split('\n')).toEqual(['nginx', 'bff-1', 'redis']);
  });

  it('restarts a service on request at once, with no back-off, after it exited by its stop signal', async () => {
    const { group, lines, stopped } = supervisedGroup();
    const [bff, other] = [await listener('bff-1'), await listener('bff-2')];
    await group.start(bff);
    await group.start(other);
    const [pid, otherPid] = [group.pid('bff-1'), group.pid('bff-2')];

    await group.restart('bff-1', 5_000);
    expect(alive(pid)).toBe(false);
    expect(group.pid('bff-1')).not.toBe(pid);
    expect(await portAnswers(bff.port)).toBe(true);
    expect(group.pid('bff-2')).toBe(otherPid);
    // Not a crash: nothing is scheduled, so no second copy starts later.
    expect(lines).toEqual([]);
    expect(stopped).toEqual([]);
    await expect(group.restart('bff-3', 5_000)).rejects.toThrow(/bff-3 is not running/);
  });

  it('stops the stack when a service exits before it was ever ready', async () => {
    const { group, stopped } = supervisedGroup();
    const broken: Service = {
      name: 'bff-1',
      args: ['-e', 'process.exit(3)'],
      port: await freePort(),
      env: {},
    };
    await expect(group.start(broken)).rejects.toThrow(/bff-1 exited before it was ready/);
    expect(stopped).toEqual(['bff-1']);
  });

  it('backs off from 1 s, doubling, up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(restartDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });
});
