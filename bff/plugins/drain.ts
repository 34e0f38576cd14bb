import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

/** Requests a draining instance still answers itself whatever their method: the probes. */
const PROBES = new Set(['/healthz', '/readyz']);
/** Methods a front may send to another instance after this one refused them (nginx: proxy_next_upstream). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface DrainOutcome {
  /** Notification streams told to reconnect (to another instance). */
  streamsHandedOver: number;
  /** Requests still in flight when the wait ran out (0: every one finished). */
  unfinished: number;
}

export interface Drain {
  /** True from the moment the drain began: /readyz answers 503. */
  readonly draining: boolean;
  /** Requests this instance is answering now (an open stream counts until it ends). */
  readonly inFlight: number;
  /**
   * Takes the instance out of service without failing a request (docs/scale-out.md, "Upgrading a fleet"):
   * /readyz answers 503 and no new connection is accepted; a new idempotent request is answered 503 with
   * `Connection: close`, which the front retries on another instance; a request of another method is
   * served, its connection closed after it; each notification stream is told to reconnect at once (it
   * resumes on another instance with Last-Event-ID); then it waits until every request in flight has
   * finished (at most `timeoutMs`) and hands the notification hub's leases to the other instances.
   * The caller closes the app afterwards. Called twice, it returns the first drain.
   */
  start(timeoutMs: number): Promise<DrainOutcome>;
}

/**
 * Decorates `app.drain`. Registered before the routes and the session gate, so that a draining instance
 * refuses a request before it reads a session or calls upstream.
 */
async function drainPlugin(app: FastifyInstance): Promise<void> {
  let draining: Promise<DrainOutcome> | undefined;
  let inFlight = 0;
  let settled: (() => void) | undefined;

  const finished = () => {
    inFlight -= 1;
    if (inFlight === 0) settled?.();
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    inFlight += 1;
    // `close` fires once whichever way the response ends (sent, hijacked stream ended, client gone).
    reply.raw.once('close', finished);
    if (draining === undefined || PROBES.has(request.url.split('?')[0] ?? '')) return;
    reply.header('connection', 'close');
    if (IDEMPOTENT.has(request.method)) {
      throw new AppError('SERVICE_UNAVAILABLE', {
        message: 'This server is restarting. Retry in a moment.',
        retryAfterSeconds: 1,
      });
    }
  });

  app.addHook('onSend', async (_request, reply) => {
    if (draining !== undefined) reply.header('connection', 'close');
  });

  const run = async (timeoutMs: number): Promise<DrainOutcome> => {
    app.log.info({ inFlight }, 'draining: out of rotation, finishing the requests in flight');
    // No new connection: a front's next attempt goes to another instance before anything is sent.
    if (app.server.listening) app.server.close(() => undefined);
    const streamsHandedOver = app.sse.handOver();
    if (inFlight > 0) {
      await new Promise<void>((resolve) => {
        settled = resolve;
        setTimeout(resolve, timeoutMs).unref();
      });
    }
    const unfinished = inFlight;
    await app.notificationHub.handOver();
    app.log.info({ streamsHandedOver, unfinished }, 'drained: notification leases handed over');
    return { streamsHandedOver, unfinished };
  };

  app.decorate('drain', {
    get draining() {
      return draining !== undefined;
    },
    get inFlight() {
      return inFlight;
    },
    start(timeoutMs: number) {
      draining ??= run(timeoutMs);
      return draining;
    },
  } satisfies Drain);
}

export const drain = fp(drainPlugin, { name: 'drain', fastify: '5.x' });

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}
