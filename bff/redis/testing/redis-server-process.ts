import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A free loopback TCP port (bound and released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('No port was assigned');
  return address.port;
}

/** Polls `probe` every 25 ms until it returns true; fails with `what` after `timeoutMs`. */
export async function waitFor(probe: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000) {
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

/**
 * A real redis-server for integration tests: loopback, a free port, no persistence. `stop` kills it
 * (as a crash would) and `start` brings it back on the same port, empty.
 */
export class RedisServerProcess {
  readonly port: number;
  readonly url: string;
  #child: ChildProcess | undefined;

  private constructor(port: number) {
    this.port = port;
    this.url = `redis://127.0.0.1:${port}`;
  }

  static async start(): Promise<RedisServerProcess> {
    const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) {
      throw new Error(
        'redis-server is not installed: the scale-out tests need a real Redis (apt-get install redis-server; .ci/run does it)',
      );
    }
    const server = new RedisServerProcess(await freePort());
    await server.startAgain();
    return server;
  }

  async startAgain(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.#child = child;
    await waitFor(async () => {
      const client = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } finally {
        client.disconnect();
      }
    }, `redis-server on port ${this.port}`);
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

  /** A client for a test's own look at the data. */
  client(): Redis {
    const client = new Redis(this.url, { maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    return client;
  }
}
