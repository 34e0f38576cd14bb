// The processes of a local stack (`npm start`, `npm run start:fleet`): each started with its output
// prefixed by its name, waited for until its port answers, and all stopped together when one of them
// exits unexpectedly or the stack is told to stop.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { consoleLineFormatter } from './console-lines.ts';

export interface Service {
  name: string;
  /** The program; Node itself (this Node) when unset, with `args` as its arguments. */
  command?: string;
  args: string[];
  /** The loopback port that answers once the service is ready. */
  port: number;
  env: Record<string, string>;
  /** How the service is asked to stop (SIGTERM unless it wants another, such as nginx's SIGQUIT). */
  stopSignal?: NodeJS.Signals;
}

export class ServiceGroup {
  readonly #root: string;
  readonly #children = new Map<string, { child: ChildProcess; service: Service }>();
  readonly #onUnexpectedExit: (name: string, how: string) => void;
  readonly #formatLine = consoleLineFormatter({
    json: process.env.WAYFARE_LOG_FORMAT === 'json',
    colorize: Boolean(process.stdout.isTTY),
  });
  #stopping = false;

  constructor(root: string, onUnexpectedExit: (name: string, how: string) => void) {
    this.#root = root;
    this.#onUnexpectedExit = onUnexpectedExit;
  }

  /**
   * The group of a command such as `npm start`: SIGINT or SIGTERM stops every service and exits 0; a
   * service that exits on its own stops the others and exits 1. `afterStop` cleans up before the exit.
   */
  static forCommand(
    root: string,
    label: string,
    afterStop: () => Promise<void> = () => Promise.resolve(),
  ): { group: ServiceGroup; stop: (exitCode: number) => Promise<void> } {
    const stop = async (exitCode: number): Promise<void> => {
      if (group.stopping) return;
      await group.stopAll();
      await afterStop();
      process.exit(exitCode);
    };
    const group = new ServiceGroup(root, (name, how) => {
      console.error(`[${label}] ${name} exited (${how}); stopping the others.`);
      void stop(1);
    });
    process.on('SIGINT', () => void stop(0));
    process.on('SIGTERM', () => void stop(0));
    return { group, stop };
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  has(name: string): boolean {
    return this.#children.has(name);
  }

  /** Starts the service and waits until its port answers (or it exits, or `timeoutMs` passes). */
  async start(service: Service, timeoutMs = 20_000): Promise<void> {
    const child = spawn(service.command ?? process.execPath, service.args, {
      cwd: this.#root,
      env: { ...process.env, ...service.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#prefixLines(service.name, child.stdout, process.stdout);
    this.#prefixLines(service.name, child.stderr, process.stderr);
    child.on('exit', (code, signal) => {
      this.#children.delete(service.name);
      if (!this.#stopping) this.#onUnexpectedExit(service.name, signal ?? `code ${code}`);
    });
    child.on('error', () => undefined);
    this.#children.set(service.name, { child, service });
    await this.#waitForPort(service, timeoutMs);
  }

  /** Stops every service, the last started first, each by its stop signal, killed after 8 s. */
  async stopAll(): Promise<void> {
    this.#stopping = true;
    const running = [...this.#children.values()].reverse();
    for (const { child, service } of running) {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill(service.stopSignal ?? 'SIGTERM');
        setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 8_000).unref();
      });
    }
  }

  #prefixLines(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WritableStream): void {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) out.write(`[${name}] ${this.#formatLine(line)}`);
    });
    stream.on('end', () => {
      if (pending) out.write(`[${name}] ${this.#formatLine(pending)}`);
    });
  }

  async #waitForPort(service: Service, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.#children.has(service.name)) throw new Error(`${service.name} exited before it was ready`);
      if (await portAnswers(service.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${service.name} did not listen on port ${service.port} within ${timeoutMs / 1000} s`);
  }
}

export function portAnswers(port: number, host = 'localhost'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A free loopback TCP port (bound and released at once). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('No port was assigned');
  return address.port;
}

/** A port from the environment: `fallback` when unset; a bad value stops the command with its name. */
export function portSetting<T extends number | undefined>(name: string, fallback: T): number | T {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > 65535) {
    console.error(`${name} must be a port number, got "${raw}"`);
    process.exit(2);
  }
  return value;
}
