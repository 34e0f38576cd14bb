// The processes of a local stack (`npm start`, `npm run start:fleet`): each started with its output
// prefixed by its name and waited for until its port answers. A service that exits on its own stops
// the stack (`npm start`), or, in a supervised group (`npm run start:fleet`), is started again with
// back-off while the others keep serving. Told to stop, the group stops them all.
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
  /** Supervised: the least wait before it is restarted (longer than the group's back-off when set). */
  minRestartDelayMs?: number;
}

/** How a supervised group brings back a service that exited on its own. */
export interface Supervision {
  /** The wait before the n-th restart in a row (n from 1). */
  restartDelayMs: (attempt: number) => number;
  /** A service that stayed up this long has its next exit count as the first in a row again. */
  stableAfterMs: number;
  /** Where the group says what it does (a service exited and is restarted, is back, or failed to start). */
  log: (line: string) => void;
}

/** 1 s, 2 s, 4 s, ... up to 30 s between attempts: a crash loop does not spin, a crash is mended at once. */
export function restartDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** (attempt - 1), 30_000);
}

interface Restarts {
  /** Restarts in a row so far (reset once the service stayed up for `stableAfterMs`). */
  attempt: number;
  timer?: NodeJS.Timeout | undefined;
}

export class ServiceGroup {
  readonly #root: string;
  readonly #children = new Map<string, { child: ChildProcess; service: Service }>();
  readonly #onUnexpectedExit: (name: string, how: string) => void;
  readonly #supervision: Supervision | undefined;
  readonly #restarts = new Map<string, Restarts>();
  /** Services that were ready once: supervised, they are restarted when they exit. */
  readonly #ready = new Set<string>();
  /** Services being restarted on request (`restart`): their exit is expected, no back-off follows. */
  readonly #restarting = new Set<string>();
  /** The services in the order they were first started; they stop in the reverse order. */
  readonly #startOrder: string[] = [];
  readonly #formatLine = consoleLineFormatter({
    json: process.env.WAYFARE_LOG_FORMAT === 'json',
    colorize: Boolean(process.stdout.isTTY),
  });
  #stopping = false;

  /**
   * `onUnexpectedExit` hears of a service that exited on its own; with `supervision`, only of one that
   * exited before it was first ready (the others are restarted).
   */
  constructor(
    root: string,
    onUnexpectedExit: (name: string, how: string) => void,
    supervision?: Supervision,
  ) {
    this.#root = root;
    this.#onUnexpectedExit = onUnexpectedExit;
    this.#supervision = supervision;
  }

  /**
   * The group of a command such as `npm start`: SIGINT or SIGTERM stops every service and exits 0; a
   * service that exits on its own stops the others and exits 1, unless `supervise` is set, when it is
   * restarted with back-off (a service that never became ready still stops the command). `afterStop`
   * cleans up before the exit.
   */
  static forCommand(
    root: string,
    label: string,
    afterStop: () => Promise<void> = () => Promise.resolve(),
    { supervise = false } = {},
  ): { group: ServiceGroup; stop: (exitCode: number) => Promise<void> } {
    const stop = async (exitCode: number): Promise<void> => {
      if (group.stopping) return;
      await group.stopAll();
      await afterStop();
      process.exit(exitCode);
    };
    const supervision: Supervision | undefined = supervise
      ? { restartDelayMs, stableAfterMs: 30_000, log: (line) => console.error(`[${label}] ${line}`) }
      : undefined;
    const group = new ServiceGroup(
      root,
      (name, how) => {
        console.error(`[${label}] ${name} exited (${how}); stopping the others.`);
        void stop(1);
      },
      supervision,
    );
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

  /**
   * Starts the service and waits until its port answers (or it exits, or `timeoutMs` passes). The bound
   * only catches a start that hangs: a Node service on a two-core machine under load (load average 30)
   * takes more than 20 s to load its modules, and that is slow, not broken. Supervised, with
   * `restartOnExit` it is restarted even when it exits before it was first ready (instead of stopping the
   * group): a service added to a group that serves already.
   */
  async start(service: Service, timeoutMs = 90_000, { restartOnExit = false } = {}): Promise<void> {
    if (!this.#startOrder.includes(service.name)) this.#startOrder.push(service.name);
    this.#spawn(service, restartOnExit);
    await this.#waitForPort(service, timeoutMs);
    this.#ready.add(service.name);
  }

  /** The process id of a running service (for an operator, or a test, to kill it). */
  pid(name: string): number | undefined {
    return this.#children.get(name)?.child.pid;
  }

  #spawn(service: Service, restarted: boolean): void {
    const child = spawn(service.command ?? process.execPath, service.args, {
      cwd: this.#root,
      env: { ...process.env, ...service.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const startedAt = Date.now();
    this.#prefixLines(service.name, child.stdout, process.stdout);
    this.#prefixLines(service.name, child.stderr, process.stderr);
    child.on('exit', (code, signal) => {
      if (this.#children.get(service.name)?.child === child) this.#children.delete(service.name);
      if (this.#stopping || this.#restarting.has(service.name)) return;
      const how = signal ?? `code ${code}`;
      // Supervised: a service that was ready once comes back; one that never was stops the stack.
      if (this.#supervision !== undefined && (restarted || this.#ready.has(service.name))) {
        this.#scheduleRestart(service, how, Date.now() - startedAt);
      } else {
        this.#onUnexpectedExit(service.name, how);
      }
    });
    child.on('error', () => undefined);
    this.#children.set(service.name, { child, service });
  }

  #scheduleRestart(service: Service, how: string, upMs: number): void {
    const supervision = this.#supervision as Supervision;
    const restarts = this.#restarts.get(service.name) ?? { attempt: 0 };
    restarts.attempt = upMs >= supervision.stableAfterMs ? 1 : restarts.attempt + 1;
    const delay = Math.max(service.minRestartDelayMs ?? 0, supervision.restartDelayMs(restarts.attempt));
    supervision.log(
      `${service.name} exited (${how}); restarting it in ${delay / 1000} s (attempt ${restarts.attempt}), the others keep serving.`,
    );
    restarts.timer = setTimeout(() => {
      restarts.timer = undefined;
      if (this.#stopping) return;
      this.#spawn(service, true);
      this.#waitForPort(service, 60_000).then(
        () => supervision.log(`${service.name} is back on port ${service.port}.`),
        // It exited again (its exit schedules the next attempt), or it hangs: killed, then restarted.
        () => this.#children.get(service.name)?.child.kill('SIGKILL'),
      );
    }, delay);
    this.#restarts.set(service.name, restarts);
  }

  /**
   * Restarts a running service on request (a rolling restart): asks it to stop by its stop signal (killed
   * after `stopTimeoutMs`), starts it again at once, with no back-off, and waits until its port answers.
   */
  async restart(name: string, stopTimeoutMs: number, startTimeoutMs = 60_000): Promise<void> {
    const running = this.#children.get(name);
    if (running === undefined) throw new Error(`${name} is not running`);
    const { child, service } = running;
    this.#restarting.add(name);
    try {
      await stopChild(child, service.stopSignal ?? 'SIGTERM', stopTimeoutMs);
      if (this.#stopping) throw new Error('the fleet is stopping');
    } finally {
      this.#restarting.delete(name);
    }
    this.#spawn(service, true);
    await this.#waitForPort(service, startTimeoutMs);
  }

  /**
   * Stops one service for good (an instance taken out of the fleet): asks it to stop by its stop signal,
   * kills it after `stopTimeoutMs`, and neither restarts it now nor when a restart was pending.
   */
  async stop(name: string, stopTimeoutMs: number): Promise<void> {
    const pending = this.#restarts.get(name);
    clearTimeout(pending?.timer);
    this.#restarts.delete(name);
    this.#ready.delete(name);
    const running = this.#children.get(name);
    if (running === undefined) return;
    this.#restarting.add(name);
    try {
      await stopChild(running.child, running.service.stopSignal ?? 'SIGTERM', stopTimeoutMs);
    } finally {
      this.#restarting.delete(name);
    }
  }

  /** Stops every service, the last started first, each by its stop signal, killed after 8 s. */
  async stopAll(): Promise<void> {
    this.#stopping = true;
    for (const restarts of this.#restarts.values()) clearTimeout(restarts.timer);
    // The reverse of the first start, whatever was restarted since: the front and the instances (which
    // release their leases in Redis as they drain) before Redis, even a Redis that was restarted last.
    const place = (name: string) => this.#startOrder.indexOf(name);
    const running = [...this.#children.values()].sort(
      (left, right) => place(right.service.name) - place(left.service.name),
    );
    for (const { child, service } of running) await stopChild(child, service.stopSignal ?? 'SIGTERM', 8_000);
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

/** Sends `signal` and waits for the exit; kills the process after `timeoutMs`. */
function stopChild(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill(signal);
    setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, timeoutMs).unref();
  });
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
