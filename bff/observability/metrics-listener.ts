import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { serveMetrics, serverPort } from '#shared/observability/fastify-observability.ts';

/**
 * The BFF's metrics on a port of their own (METRICS_HOST:METRICS_PORT), opened when the app listens: the
 * front (nginx) proxies only the app's port, so no browser reaches them.
 */
async function metricsListener(app: FastifyInstance): Promise<void> {
  const { METRICS_HOST, METRICS_PORT } = app.config;
  let server: Server | undefined;
  app.decorate('metricsPort', () => (server === undefined ? undefined : serverPort(server)));
  if (METRICS_PORT !== undefined) {
    app.addHook('onListen', async () => {
      server = await serveMetrics(app.telemetry, METRICS_HOST, METRICS_PORT);
      app.log.info({ url: `http://${METRICS_HOST}:${serverPort(server)}/metrics` }, 'metrics listening');
    });
    app.addHook('onClose', async () => {
      const open = server;
      if (open === undefined) return;
      await new Promise<void>((resolve) => open.close(() => resolve()));
      open.closeAllConnections();
    });
  }
}

export const metricsListenerPlugin = fp(metricsListener, {
  name: 'metrics-listener',
  fastify: '5.x',
  dependencies: ['observability'],
  decorators: { fastify: ['config', 'telemetry'] },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The port the metrics listener took, once the app listens (undefined when METRICS_PORT is unset). */
    metricsPort: () => number | undefined;
  }
}
