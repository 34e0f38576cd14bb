import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

export interface StartedBff {
  app: FastifyInstance;
  url: string;
  /** Every log line the BFF wrote (debug and up), when started with `logs`. */
  logs: string[];
  close(): Promise<void>;
}

export interface StartBffOptions {
  /** Where to keep every log line (debug and up); without it the BFF logs at LOG_LEVEL to stdout. */
  logs?: string[];
}

/**
 * The one way tests start a BFF: in this process, on a loopback port 0, configured from `env` as the
 * real server is (NODE_ENV=test). Alone (`start-test-bff.ts`), on the stand-ins (`gateway-stack.ts`,
 * `sign-in-stack.ts`) and as a fleet (`bff-fleet.ts`) all start theirs here.
 */
export async function startBff(
  env: Record<string, string>,
  options: StartBffOptions = {},
): Promise<StartedBff> {
  const logs = options.logs ?? [];
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    ...(options.logs ? { LOG_LEVEL: 'debug' } : {}),
    ...env,
  });
  const app = await buildApp({
    config,
    ...(options.logs ? { logger: { level: 'debug', stream: sinkInto(logs) } } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  let closed = false;
  return {
    app,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    logs,
    async close() {
      if (closed) return;
      closed = true;
      await closeWithin(app);
    },
  };
}

/**
 * Closes a server gracefully, then cuts the connections still open after a second: a client that opened
 * a connection and never sent a request on it would otherwise hold the close until the headers timeout.
 */
export async function closeWithin(app: FastifyInstance): Promise<void> {
  const force = setTimeout(() => app.server.closeAllConnections(), 1_000);
  try {
    await app.close();
  } finally {
    clearTimeout(force);
  }
}

/** A writable that keeps each line written to it. */
export function sinkInto(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
}
