import FastifyOtelInstrumentation from '@fastify/otel';
import { isSpanContextValid, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor } from '@opentelemetry/sdk-trace';

/**
 * The process's OpenTelemetry: W3C trace context in and out, spans kept for the log lines and exported
 * over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT is set (the standard OTEL_* variables apply),
 * and every metric read in Prometheus text format from one exporter that starts no server of its own
 * (each process serves it where it chooses). Started once per process, by the first server built in it:
 * the undici instrumentation listens on the process's diagnostics channels, and the API's globals can be
 * set only once.
 */
export interface Telemetry {
  readonly serviceName: string;
  readonly prometheus: PrometheusExporter;
  /** The Fastify instrumentation; each server registers `fastifyOtel.plugin()` first. */
  readonly fastifyOtel: FastifyOtelInstrumentation;
  /** Flushes the spans still waiting for export. */
  flush(): Promise<void>;
}

let started: Telemetry | undefined;

/**
 * The histograms in seconds, exported under names that end with their unit as Prometheus names do
 * (`http_server_request_duration_seconds`), which this exporter does not add by itself.
 */
const SECONDS_HISTOGRAMS = [
  'http.server.request.duration',
  'http.client.request.duration',
  'wayfare.notifications.delivery_lag',
];

export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Telemetry {
  if (started) return started;
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const fastifyOtel = new FastifyOtelInstrumentation({
    // A span named by its route template, and no query string (search terms, cursors) in its attributes.
    requestHook: (span: Span, request: { method: string; url: string; routeOptions: { url?: string } }) => {
      span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched route'}`);
      span.setAttribute('url.path', withoutQuery(request.url));
    },
    // One span per request: a span per hook, or for the handler inside it, would multiply the cost and
    // say little (the calls the handler makes are spans of their own).
    instrumentHooks: false,
    instrumentHandler: false,
  });
  const undici = new UndiciInstrumentation({
    requestHook: (span, request) => {
      span.setAttributes({ 'url.full': `${request.origin}${withoutQuery(request.path)}`, 'url.query': '' });
    },
  });
  const exporting = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? '') !== '';
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    autoDetectResources: false,
    // Spans are always made (the log lines carry their ids) and exported only to a configured collector.
    spanProcessors: [
      exporting ? new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }) : new NoopSpanProcessor(),
    ],
    metricReaders: [prometheus],
    views: SECONDS_HISTOGRAMS.map((instrumentName) => ({
      instrumentName,
      name: `${instrumentName}_seconds`,
    })),
    logRecordProcessors: [],
    instrumentations: [undici, fastifyOtel],
  });
  sdk.start();
  let flushing: Promise<void> | undefined;
  started = {
    serviceName,
    prometheus,
    fastifyOtel,
    flush: () => (flushing ??= forceFlush().finally(() => (flushing = undefined))),
  };
  return started;
}

async function forceFlush(): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
  await provider.getDelegate?.().forceFlush?.();
}

function withoutQuery(pathAndQuery: string): string {
  const cut = pathAndQuery.indexOf('?');
  return cut === -1 ? pathAndQuery : pathAndQuery.slice(0, cut);
}

/** The ids a log line carries: those of the span active where it is written, when there is one. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const context = trace.getActiveSpan()?.spanContext();
  if (context === undefined || !isSpanContextValid(context)) return {};
  return { trace_id: context.traceId, span_id: context.spanId };
}
