import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../scripts/service-group.ts';

/** A benchmark's own redis-server: loopback, a free port, no persistence; `client` is connected to it. */
export interface BenchRedis {
  url: string;
  child: ChildProcess;
  client: Redis;
}

/** Starts redis-server and waits until it answers, for at most `timeoutMs`; exits 2 when it is not installed. */
export async function startBenchRedis(timeoutMs: number): Promise<BenchRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  child.once('error', (error) => {
    console.error(`redis-server could not start (${error.message}): apt-get install redis-server`);
    process.exit(2);
  });
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => 20 });
  client.on('error', () => undefined);
  const deadline = Date.now() + timeoutMs;
  while ((await client.ping().catch(() => '')) !== 'PONG') {
    if (Date.now() > deadline) throw new Error('Timed out waiting for redis-server');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { url, child, client };
}
