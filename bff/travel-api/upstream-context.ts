import type { FastifyReply, FastifyRequest } from 'fastify';

export interface UpstreamContext {
  requestId: string;
  log: FastifyRequest['log'];
  /** Aborts when the browser goes away before its answer was written: the upstream call stops too. */
  signal: AbortSignal;
}

/**
 * What every upstream call made for a browser request carries: its request id, its logger, its lifetime.
 * The lifetime is the reply's (aborted when the browser leaves before the answer was written), or for a
 * stream route the stream's own signal (aborted when the browser stream ends).
 */
export function upstreamContext(
  request: FastifyRequest,
  lifetime: FastifyReply | AbortSignal,
): UpstreamContext {
  if (lifetime instanceof AbortSignal) return { requestId: request.id, log: request.log, signal: lifetime };
  const reply = lifetime;
  const browserGone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) browserGone.abort(new Error('The browser closed the request'));
  });
  return { requestId: request.id, log: request.log, signal: browserGone.signal };
}
