import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { askRedis as ask, freePort, RedisServerProcess, waitFor } from './redis-server-process.ts';

/** The name the Sentinels monitor the test primary under. */
export const SENTINEL_PRIMARY_NAME = 'wayfare-test';

/** `SENTINEL MASTER <name>` as field → value. */
async function primaryAsSeenBy(port: number): Promise<Record<string, string>> {
  const reply = (await ask(port, (client) =>
    client.call('SENTINEL', 'MASTER', SENTINEL_PRIMARY_NAME),
  )) as string[];
  const fields: Record<string, string> = {};
  for (let index = 0; index + 1 < reply.length; index += 2) fields[reply[index]!] = reply[index + 1]!;
  return fields;
}

interface SentinelProcess {
  port: number;
  child: ChildProcess;
}

/**
 * A Redis primary, one replica and three Sentinels (quorum two) on free loopback ports, for the tests of
 * a failover: `killPrimary` crashes the primary (SIGKILL) and `waitForPromotion` waits until every
 * Sentinel names the replica. The failover window is `downAfterMs` plus an election.
 */
export class RedisSentinelGroup {
  readonly primary: RedisServerProcess;
  readonly replica: RedisServerProcess;
  readonly #sentinels: SentinelProcess[];
  readonly #dir: string;

  private constructor(
    primary: RedisServerProcess,
    replica: RedisServerProcess,
    sentinels: SentinelProcess[],
    dir: string,
  ) {
    this.primary = primary;
    this.replica = replica;
    this.#sentinels = sentinels;
    this.#dir = dir;
  }

  static async start({ downAfterMs = 1000, failoverTimeoutMs = 5000 } = {}): Promise<RedisSentinelGroup> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-sentinels-'));
    // In the group's folder: a replica writes the primary's snapshot to its folder when it syncs.
    const primary = await RedisServerProcess.start({ args: ['--dir', dir] });
    const replica = await RedisServerProcess.start({
      args: ['--dir', dir, '--dbfilename', 'replica.rdb', '--replicaof', '127.0.0.1', String(primary.port)],
    });
    const sentinels: SentinelProcess[] = [];
    const group = new RedisSentinelGroup(primary, replica, sentinels, dir);
    try {
      for (let index = 0; index < 3; index += 1) {
        sentinels.push(await startSentinel(dir, index, primary.port, downAfterMs, failoverTimeoutMs));
      }
      // Ready for a failover once every Sentinel knows the replica and the two other Sentinels (they meet
      // through the primary's hello channel, every two seconds) and the replica is in sync.
      await waitFor(async () => {
        for (const sentinel of sentinels) {
          const seen = await primaryAsSeenBy(sentinel.port);
          if (seen['num-slaves'] !== '1' || seen['num-other-sentinels'] !== '2') return false;
        }
        return (await ask(replica.port, (client) => client.info('replication'))).includes(
          'master_link_status:up',
        );
      }, 'the Sentinels to know the replica and each other');
    } catch (error) {
      await group.close();
      throw error;
    }
    return group;
  }

  /** REDIS_SENTINELS of the instances. */
  get sentinelsSetting(): string {
    return this.#sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(',');
  }

  /** Crashes the primary: no clean shutdown, nothing handed over. */
  async killPrimary(): Promise<void> {
    await this.primary.stop();
  }

  /** Waits until every Sentinel names the replica as the primary and the replica serves as one. */
  async waitForPromotion(): Promise<void> {
    await waitFor(async () => {
      for (const sentinel of this.#sentinels) {
        const seen = await primaryAsSeenBy(sentinel.port);
        if (seen.port !== String(this.replica.port)) return false;
      }
      const role = (await ask(this.replica.port, (client) => client.call('ROLE'))) as string[];
      return role[0] === 'master';
    }, 'a Sentinel to promote the replica');
  }

  async close(): Promise<void> {
    for (const sentinel of this.#sentinels) {
      if (sentinel.child.exitCode === null && sentinel.child.signalCode === null) {
        const exited = new Promise((resolve) => sentinel.child.once('exit', resolve));
        sentinel.child.kill('SIGKILL');
        await exited;
      }
    }
    await this.replica.stop();
    await this.primary.stop();
    await rm(this.#dir, { recursive: true, force: true });
  }
}

/**
 * A redis-sentinel on a free port, from a configuration file of its own (Sentinel rewrites it), waited
 * for until it answers as itself: another test's server may have taken the port meanwhile.
 */
async function startSentinel(
  dir: string,
  index: number,
  primaryPort: number,
  downAfterMs: number,
  failoverTimeoutMs: number,
): Promise<SentinelProcess> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const config = path.join(dir, `sentinel-${index}.conf`);
    await writeFile(
      config,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_PRIMARY_NAME} 127.0.0.1 ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_PRIMARY_NAME} ${downAfterMs}`,
        `sentinel failover-timeout ${SENTINEL_PRIMARY_NAME} ${failoverTimeoutMs}`,
        `sentinel parallel-syncs ${SENTINEL_PRIMARY_NAME} 1`,
        '',
      ].join('\n'),
    );
    const child = spawn('redis-sentinel', [config], { stdio: 'ignore' });
    await waitFor(
      async () =>
        child.exitCode !== null ||
        (await ask(port, (client) => client.info('server'))).includes(`process_id:${child.pid}\r\n`),
      `redis-sentinel on port ${port}`,
    );
    if (child.exitCode === null) return { port, child };
    // It exited before answering: the port was taken by another process.
    if (attempt === 3) throw new Error(`redis-sentinel exited before answering on port ${port}`);
  }
}
