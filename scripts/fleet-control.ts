// How an operator addresses a running `npm run start:fleet`: a Unix socket at a path known from the
// front's port (one fleet per port), on which `npm run fleet:roll` asks for a rolling restart and
// `npm run fleet:add` / `npm run fleet:remove` for one more or one fewer BFF instance, each reading its
// progress line by line until the last line says how it ended.
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The last line of an answer: the change ended as asked, or failed (with why). */
const DONE = 'done';
const FAILED = 'failed: ';

/** What the socket takes, one request a connection: `roll`, `add`, or `remove <instance>`. */
export type FleetRequest = { kind: 'roll' } | { kind: 'add' } | { kind: 'remove'; name: string };

/** What the fleet does on each request, saying each step; one change at a time. */
export interface FleetHandlers {
  roll: (say: (line: string) => void) => Promise<void>;
  add: (say: (line: string) => void) => Promise<void>;
  remove: (name: string, say: (line: string) => void) => Promise<void>;
}

const UNDER_WAY: Record<FleetRequest['kind'], string> = {
  roll: 'a rolling restart',
  add: 'an instance being added',
  remove: 'an instance being removed',
};

function parseRequest(line: string): FleetRequest | undefined {
  const [kind, name, ...rest] = line.trim().split(/\s+/);
  if (kind === 'roll' && name === undefined) return { kind };
  if (kind === 'add' && name === undefined) return { kind };
  if (kind === 'remove' && name !== undefined && rest.length === 0) return { kind, name };
  return undefined;
}

function requestLine(request: FleetRequest): string {
  return request.kind === 'remove' ? `remove ${request.name}` : request.kind;
}

/** Where the fleet whose front listens on `frontPort` takes requests (a socket only its user can open). */
export function fleetControlPath(frontPort: number): string {
  return path.join(os.tmpdir(), `wayfare-fleet-${frontPort}.sock`);
}

export interface FleetControl {
  close(): Promise<void>;
}

/**
 * Serves the fleet's control socket: each request runs its handler (one change at a time; another is
 * refused while one is under way), with every line it says sent to the asker. A socket left by a fleet
 * that died is replaced (the caller has made sure no fleet serves its port).
 */
export async function serveFleetControl(socketPath: string, handlers: FleetHandlers): Promise<FleetControl> {
  if (existsSync(socketPath)) await unlink(socketPath);
  let underWay: FleetRequest['kind'] | undefined;
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    const lines = createInterface({ input: socket });
    lines.once('line', (line) => {
      lines.close();
      const say = (text: string) => {
        if (!socket.destroyed) socket.write(`${text}\n`);
      };
      const request = parseRequest(line);
      if (request === undefined) {
        socket.end(
          `${FAILED}unknown request "${line.slice(0, 40)}" (the fleet takes "roll", "add" or "remove <instance>")\n`,
        );
        return;
      }
      if (underWay !== undefined) {
        socket.end(`${FAILED}${UNDER_WAY[underWay]} is already under way\n`);
        return;
      }
      underWay = request.kind;
      const run =
        request.kind === 'remove' ? handlers.remove(request.name, say) : handlers[request.kind](say);
      run
        .then(
          () => socket.end(`${DONE}\n`),
          (error: unknown) =>
            socket.end(`${FAILED}${error instanceof Error ? error.message : String(error)}\n`),
        )
        .finally(() => {
          underWay = undefined;
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: socketPath, readableAll: false, writableAll: false }, resolve);
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        unlink(socketPath).catch(() => undefined);
      }),
  };
}

/**
 * Sends `request` to the fleet at `socketPath`, handing each progress line to `onLine`; resolves when the
 * fleet has done it, rejects with the fleet's reason (or with how to start one when no fleet answers).
 */
export async function requestFleet(
  socketPath: string,
  request: FleetRequest,
  onLine: (line: string) => void,
): Promise<void> {
  const socket = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
            ? `no fleet answers at ${socketPath}: start one with npm run start:fleet, or set WAYFARE_FLEET_PORT to its front's port`
            : `the fleet's control socket ${socketPath} failed: ${error.message}`,
        ),
      ),
    );
  });
  socket.write(`${requestLine(request)}\n`);
  let last: string | undefined;
  for await (const line of createInterface({ input: socket })) {
    if (line === DONE || line.startsWith(FAILED)) {
      last = line;
      break;
    }
    onLine(line);
  }
  socket.destroy();
  if (last === DONE) return;
  throw new Error(last?.slice(FAILED.length) ?? `the fleet stopped before ${UNDER_WAY[request.kind]} ended`);
}

/** Asks the fleet at `socketPath` for a rolling restart (requestFleet). */
export function requestRoll(socketPath: string, onLine: (line: string) => void): Promise<void> {
  return requestFleet(socketPath, { kind: 'roll' }, onLine);
}
