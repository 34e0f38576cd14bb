import type { FastifyRequest } from 'fastify';

/** What every upstream call made for a browser request carries: its request id and its logger. */
export function upstreamContext(request: FastifyRequest): { requestId: string; log: FastifyRequest['log'] } {
  return { requestId: request.id, log: request.log };
}
