import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import webPush from 'web-push';
import { startBff } from './start-bff.ts';

/** Two fixed test keys (32 bytes each); the first seals. */
export const TEST_SESSION_ENCRYPTION_KEYS = [
  `test-2:${Buffer.alloc(32, 2).toString('base64')}`,
  `test-1:${Buffer.alloc(32, 1).toString('base64')}`,
].join(',');

export interface FleetInstance {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface FleetProcess {
  url: string;
  /** Kills the process without warning (SIGKILL): no lease is handed back, no stream is ended. */
  kill(): Promise<void>;
}

/**
 * BFF instances sharing one Redis: in-process ones (each its own Fastify on port 0) and real processes
 * (node bff/server.ts) for the tests that kill one. Each has its own data folder.
 */
export class BffFleet {
  readonly #env: Record<string, string>;
  readonly #instances: FleetInstance[] = [];
  readonly #processes: ChildProcess[] = [];
  readonly #dataDirs: string[] = [];

  constructor(env: Record<string, string>) {
    const vapid = webPush.generateVAPIDKeys();
    this.#env = {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      SESSION_ENCRYPTION_KEYS: TEST_SESSION_ENCRYPTION_KEYS,
      ...env,
    };
  }

  async start(env: Record<string, string> = {}): Promise<FleetInstance> {
    const dataDir = await this.#dataDir();
    const instance: FleetInstance = await startBff({ ...this.#env, DATA_DIR: dataDir, ...env });
    this.#instances.push(instance);
    return instance;
  }

  /**
   * A BFF process on a port it chose itself (port 0), read from its "listening" log line: a port chosen
   * here and handed to it could be taken by another test's server before it bound it, and /healthz
   * would then have been answered by that server.
   */
  async spawn(env: Record<string, string> = {}): Promise<FleetProcess> {
    const server = fileURLToPath(new URL('../server.ts', import.meta.url));
    const child = spawn(process.execPath, [server], {
      env: {
        ...process.env,
        ...this.#env,
        DATA_DIR: await this.#dataDir(),
        ...env,
        PORT: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    this.#processes.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (line) => {
        const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (listening?.[1] === undefined) return;
        lines.removeAllListeners('line');
        resolve(listening[1]);
      });
      child.once('exit', () => reject(new Error(`The BFF process exited: ${stderr}`)));
    });
    return {
      url,
      async kill() {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      },
    };
  }

  async close(): Promise<void> {
    for (const child of this.#processes) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(this.#instances.map((instance) => instance.close()));
    await Promise.all(this.#dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }

  async #dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-fleet-'));
    this.#dataDirs.push(dir);
    return dir;
  }
}
