import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { createRedisClient, waitForRedis } from '../redis/redis-client.ts';

/** A free loopback TCP port (bound and released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('No port was assigned');
  return address.port;
}

/** Polls `probe` every 25 ms until it returns true; fails with `what` after `timeoutMs` (the suite's wait). */
export async function waitFor(
  probe: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = inject('eventuallyMs'),
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (
      await Promise.resolve()
        .then(probe)
        .catch(() => false)
    )
      return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Asks one thing of the Redis server (or Sentinel) on a loopback port, giving up at once when it does not answer. */
export async function askRedis<T>(port: number, question: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await question(client);
  } finally {
    client.disconnect();
  }
}

/** redis-server exited before it answered: its port was taken (it binds or exits). */
class PortTaken extends Error {
  constructor(port: number) {
    super(`redis-server exited before answering: port ${port} is taken by another process`);
  }
}

/**
 * A real redis-server for integration tests: loopback, a free port, no persistence. `stop` kills it
 * (as a crash would) and `start` brings it back on the same port, empty.
 */
export class RedisServerProcess {
  readonly port: number;
  readonly url: string;
  #child: ChildProcess | undefined;
  readonly #persistenceDir: string | undefined;
  readonly #args: string[];

  private constructor(port: number, persistenceDir: string | undefined, args: string[]) {
    this.port = port;
    this.#persistenceDir = persistenceDir;
    this.#args = args;
    this.url = `redis://127.0.0.1:${port}`;
  }

  /**
   * With `persistent`, every write is in an append-only file in a fresh folder, so a restart keeps the
   * data. `args` are more redis-server options (`--replicaof host port`).
   */
  static async start({ persistent = false, args = [] as string[] } = {}): Promise<RedisServerProcess> {
    const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) {
      throw new Error(
        'redis-server is not installed: the scale-out tests need a real Redis (apt-get install redis-server; .ci/run does it)',
      );
    }
    const dir = persistent ? await mkdtemp(path.join(os.tmpdir(), 'wayfare-redis-')) : undefined;
    // A free port can be taken by another test's server before redis-server binds it: then another one.
    for (let attempt = 1; ; attempt += 1) {
      const server = new RedisServerProcess(await freePort(), dir, args);
      try {
        await server.startAgain();
        return server;
      } catch (error) {
        if (!(error instanceof PortTaken) || attempt === 3) throw error;
      }
    }
  }

  /**
   * Starts redis-server on this server's port and waits until it answers, as itself: a server of
   * another test that took the port meanwhile answers PING too, with its own process id.
   */
  async startAgain(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        ...['--port', String(this.port), '--bind', '127.0.0.1', '--save', ''],
        ...(this.#persistenceDir === undefined
          ? ['--appendonly', 'no']
          : ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.#persistenceDir]),
        ...this.#args,
      ],
      { stdio: 'ignore' },
    );
    this.#child = child;
    const exited = new Promise<never>((_resolve, reject) =>
      child.once('exit', () => reject(new PortTaken(this.port))),
    );
    // It exits later too, when stopped: nobody waits for that.
    exited.catch(() => undefined);
    await Promise.race([
      exited,
      waitFor(async () => {
        if (child.exitCode !== null) return false;
        return (await askRedis(this.port, (client) => client.info('server'))).includes(
          `process_id:${child.pid}\r\n`,
        );
      }, `redis-server on port ${this.port}`),
    ]);
  }

  /** Stops the server and removes its persistence folder. */
  async close(): Promise<void> {
    await this.stop();
    if (this.#persistenceDir !== undefined) await rm(this.#persistenceDir, { recursive: true, force: true });
  }

  /** Kills the server at once, without a clean shutdown. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.#child = undefined;
  }

  /**
   * A connection as the BFF opens it (no offline queue, a command timeout), once it is ready: it queues
   * nothing while it connects, so a test starts with it ready, as a BFF serves once it is.
   */
  async bffClient(logger: FastifyBaseLogger): Promise<Redis> {
    const client = createRedisClient({ url: this.url, logger, commandTimeoutMs: 10_000 });
    if (!(await waitForRedis(client, 10_000))) {
      client.disconnect();
      throw new Error('the test Redis connection never became ready');
    }
    return client;
  }

  /** A client for a test's own look at the data. */
  client(): Redis {
    const client = new Redis(this.url, { maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    return client;
  }
}
