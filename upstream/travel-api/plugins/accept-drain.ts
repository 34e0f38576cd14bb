import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { setImmediate as nextPoll, setTimeout as sleep } from 'node:timers/promises';

/** How long no new connection must arrive before the listener closes, and the most the wait may take. */
export const ACCEPT_QUIET_MS = 100;
export const ACCEPT_DRAIN_MAX_MS = 2_000;

/**
 * On close, keeps the listener open until no connection has arrived for ACCEPT_QUIET_MS (at most
 * ACCEPT_DRAIN_MAX_MS). Closing a listener resets the connections the kernel has queued for it, and closing
 * the server destroys accepted connections whose request is not read yet: a client that connected just
 * before would see its request cut. Waiting lets each of them be read and answered (503 RETRY_LATER once
 * closing began, see service-error-handler.ts). Registered after every other plugin, so its wait comes after the
 * streams got `done`.
 */
function acceptDrain(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.addHook('preClose', async () => {
    if (!app.server.listening) return;
    let arrived = 0;
    const onConnection = (): void => {
      arrived += 1;
    };
    app.server.on('connection', onConnection);
    const deadline = Date.now() + ACCEPT_DRAIN_MAX_MS;
    try {
      for (;;) {
        const before = arrived;
        await sleep(ACCEPT_QUIET_MS);
        // One more turn through the event loop's poll phase, where waiting connections are accepted and read.
        await nextPoll();
        if (arrived === before || Date.now() >= deadline) return;
      }
    } finally {
      app.server.off('connection', onConnection);
    }
  });
  done();
}

export default fp(acceptDrain, { name: 'accept-drain' });
