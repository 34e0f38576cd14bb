import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isSpanContextValid, metrics, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startTelemetry, type Telemetry } from './telemetry.ts';

/** The semantic conventions' buckets for HTTP durations, in seconds. */
export const HTTP_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

export interface ObservabilityOptions {
  serviceName: string;
  /** Serve GET /metrics on this server itself (a server no browser reaches); otherwise see serveMetrics. */
  metricsRoute?: boolean;
}

/**
 * Traces, the request metric and the request log line of one Fastify server: the incoming W3C trace
 * context continued (@fastify/otel), `http.server.request.duration` by route template, and one line at
 * info per request when it ends (method, route template, status, duration, request and trace ids), with
 * the server's `disableRequestLogging` set. Registered first, so that every
 * route and hook registered after it runs inside the request's span.
 */
async function observabilityPlugin(app: FastifyInstance, options: ObservabilityOptions): Promise<void> {
  const telemetry = startTelemetry(options.serviceName);
  app.decorate('telemetry', telemetry);
  await app.register(telemetry.fastifyOtel.plugin());
  const duration = metrics.getMeter(options.serviceName).createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests.',
    unit: 's',
    advice: { explicitBucketBoundaries: HTTP_DURATION_BUCKETS },
  });
  app.decorateRequest('trace', undefined);
  app.addHook('onRequest', (request, _reply, next) => {
    const context = trace.getActiveSpan()?.spanContext();
    if (context !== undefined && isSpanContextValid(context))
      request.trace = { traceId: context.traceId, spanId: context.spanId };
    next();
  });
  app.addHook('onResponse', (request, reply, next) => {
    const route = request.routeOptions.url;
    // The request's one log line (the server's own "incoming request" and "request completed" are off).
    request.log.info(
      {
        method: request.method,
        route: route ?? 'unmatched',
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime),
        requestId: request.id,
        ...(request.trace === undefined
          ? {}
          : { trace_id: request.trace.traceId, span_id: request.trace.spanId }),
      },
      'request',
    );
    duration.record(reply.elapsedTime / 1000, {
      'http.request.method': request.method,
      'http.response.status_code': reply.statusCode,
      'url.scheme': request.protocol,
      ...(route === undefined ? {} : { 'http.route': route }),
    });
    next();
  });
  if (options.metricsRoute) {
    app.get('/metrics', { config: { otel: false }, schema: { hide: true } }, (request, reply) => {
      reply.hijack();
      telemetry.prometheus.getMetricsRequestHandler(request.raw, reply.raw);
    });
  }
}

export const observability = fp(observabilityPlugin, { name: 'observability', fastify: '5.x' });

/** A listener of its own that answers GET /metrics (and nothing else) in Prometheus text format. */
export async function serveMetrics(telemetry: Telemetry, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url?.split('?')[0] === '/metrics') {
      telemetry.prometheus.getMetricsRequestHandler(request, response);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

export function serverPort(server: Server): number {
  return (server.address() as AddressInfo).port;
}

declare module 'fastify' {
  interface FastifyInstance {
    telemetry: Telemetry;
  }
  interface FastifyRequest {
    /** The ids of the request's span, when it has one. */
    trace: { traceId: string; spanId: string } | undefined;
  }
}
