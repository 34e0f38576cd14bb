import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AttributeSets, HTTP_DURATION_BUCKETS, startTelemetry, type Telemetry } from './telemetry.ts';

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
  app.decorateRequest('trace', undefined);
  if (telemetry.enabled) {
    // Its request hook (telemetry.ts) also keeps the ids of the request's span in request.trace.
    await app.register(telemetry.fastifyOtel.plugin());
  }
  const duration = requestDurations(options.serviceName);
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
    if (telemetry.enabled)
      duration.record(reply.elapsedTime / 1000, request.method, reply.statusCode, request.protocol, route);
    next();
  });
  if (options.metricsRoute) {
    app.get('/metrics', { config: { otel: false }, schema: { hide: true } }, (request, reply) => {
      if (!telemetry.enabled) return reply.code(503).type('text/plain').send(METRICS_OFF);
      reply.hijack();
      telemetry.prometheus.getMetricsRequestHandler(request.raw, reply.raw);
    });
  }
}

const METRICS_OFF = 'Metrics are off: OTEL_SDK_DISABLED is true.\n';

/**
 * `http.server.request.duration`, with the attribute set of each (route, method, status, scheme) made once
 * and reused: a request records into a set it finds by those values (AttributeSets) instead of building a
 * new object for the metrics SDK to copy and hash. The sets are bounded as the labels are (route
 * templates, methods and statuses).
 */
function requestDurations(serviceName: string) {
  const histogram = metrics.getMeter(serviceName).createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests.',
    unit: 's',
    advice: { explicitBucketBoundaries: HTTP_DURATION_BUCKETS },
  });
  const attributeSets = new AttributeSets<string>();
  return {
    record(seconds: number, method: string, status: number, scheme: string, route: string | undefined) {
      const attributes = attributeSets.get(
        () => ({
          'http.request.method': method,
          'http.response.status_code': status,
          'url.scheme': scheme,
          ...(route === undefined ? {} : { 'http.route': route }),
        }),
        // A route template starts with a slash: '' stands for no route (a request no route matched).
        route ?? '',
        method,
        status,
        scheme,
      );
      histogram.record(seconds, attributes);
    },
  };
}

export const observability = fp(observabilityPlugin, { name: 'observability', fastify: '5.x' });

/** A listener of its own that answers GET /metrics (and nothing else) in Prometheus text format. */
export async function serveMetrics(telemetry: Telemetry, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url?.split('?')[0] === '/metrics') {
      if (telemetry.enabled) telemetry.prometheus.getMetricsRequestHandler(request, response);
      else response.writeHead(503, { 'content-type': 'text/plain' }).end(METRICS_OFF);
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
