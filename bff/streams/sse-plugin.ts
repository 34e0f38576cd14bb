import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { encodeSseComment } from '#shared/sse.ts';
import { SseRegistry } from './sse-registry.ts';

/**
 * Decorates `app.sse`, the registry of every open browser SSE stream. On shutdown (preClose, before
 * the server stops accepting) each stream gets its farewell and ends, so `app.close()` never waits on
 * an open stream.
 */
async function ssePlugin(app: FastifyInstance): Promise<void> {
  const registry = new SseRegistry({
    heartbeatMs: app.config.SSE_HEARTBEAT_MS,
    heartbeat: encodeSseComment('heartbeat'),
    maxBufferedBytes: app.config.SSE_MAX_BUFFERED_BYTES,
    drainTimeoutMs: app.config.SSE_DRAIN_TIMEOUT_MS,
  });
  app.decorate('sse', registry);
  app.addHook('preClose', (done) => {
    const open = registry.size;
    registry.closeAll();
    if (open > 0) app.log.info({ streams: open }, 'SSE streams told to reconnect before shutdown');
    done();
  });
}

export default fp(ssePlugin, { name: 'sse', fastify: '5.x', decorators: { fastify: ['config'] } });

declare module 'fastify' {
  interface FastifyInstance {
    sse: SseRegistry;
  }
}
