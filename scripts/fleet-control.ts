// How an operator addresses a running `npm run start:fleet`: a Unix socket at a path known from the
// front's port (one fleet per port), on which `npm run fleet:roll` asks for a rolling restart and reads its
// progress line by line until the last line says how it ended.
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The one request the socket takes. */
const ROLL = 'roll';
/** The last line of an answer: the roll ended with every instance ready, or failed (with why). */
const DONE = 'done';
const FAILED = 'failed: ';

/** Where the fleet whose front listens on `frontPort` takes requests (a socket only its user can open). */
export function fleetControlPath(frontPort: number): string {
  return path.join(os.tmpdir(), `wayfare-fleet-${frontPort}.sock`);
}

export interface FleetControl {
  close(): Promise<void>;
}

/**
 * Serves the fleet's control socket: each `roll` runs `roll` (one at a time; a second is refused), with
 * every line it says sent to the asker. A socket left by a fleet that died is replaced (the caller has made
 * sure no fleet serves its port).
 */
export async function serveFleetControl(
  socketPath: string,
  roll: (say: (line: string) => void) => Promise<void>,
): Promise<FleetControl> {
  if (existsSync(socketPath)) await unlink(socketPath);
  let rolling = false;
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    const lines = createInterface({ input: socket });
    lines.once('line', (request) => {
      lines.close();
      const say = (line: string) => {
        if (!socket.destroyed) socket.write(`${line}\n`);
      };
      if (request.trim() !== ROLL) {
        socket.end(`${FAILED}unknown request "${request.slice(0, 40)}" (the fleet takes "${ROLL}")\n`);
        return;
      }
      if (rolling) {
        socket.end(`${FAILED}a rolling restart is already under way\n`);
        return;
      }
      rolling = true;
      roll(say)
        .then(
          () => socket.end(`${DONE}\n`),
          (error: unknown) =>
            socket.end(`${FAILED}${error instanceof Error ? error.message : String(error)}\n`),
        )
        .finally(() => {
          rolling = false;
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
 * Asks the fleet at `socketPath` for a rolling restart, handing each progress line to `onLine`; resolves
 * when every instance is ready again, rejects with the fleet's reason (or with how to start one when no
 * fleet answers).
 */
export async function requestRoll(socketPath: string, onLine: (line: string) => void): Promise<void> {
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
  socket.write(`${ROLL}\n`);
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
  throw new Error(last?.slice(FAILED.length) ?? 'the fleet stopped before the rolling restart ended');
}
