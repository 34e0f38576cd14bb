import FastifyOtelInstrumentation from '@fastify/otel';
import {
  context,
  createContextKey,
  isSpanContextValid,
  metrics,
  propagation,
  trace,
  ValueType,
  type Attributes,
  type Context,
  type Histogram,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import type { FastifyRequest } from 'fastify';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { setSpansNeverRecorded } from './trace-context.ts';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  NoopSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace';

/**
 * The process's OpenTelemetry: W3C trace context in and out, spans recorded and exported over OTLP/HTTP
 * only when OTEL_EXPORTER_OTLP_ENDPOINT is set (the standard OTEL_* variables apply; which spans are
 * recorded is the sampler's, see tracesSampler), and every metric read in Prometheus text format from one
 * exporter that starts no server of its own (each process serves it where it chooses). Started once per
 * process, by the first server built in it: the undici instrumentation listens on the process's
 * diagnostics channels, and the API's globals can be set only once. OTEL_SDK_DISABLED=true turns all of
 * it off (no span, no metric, no trace id in the log lines).
 */
export interface Telemetry {
  readonly serviceName: string;
  /** False when OTEL_SDK_DISABLED is true: nothing is instrumented, and there are no metrics to read. */
  readonly enabled: boolean;
  readonly prometheus: PrometheusExporter;
  /** The Fastify instrumentation; each server registers `fastifyOtel.plugin()` first (when enabled). */
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

/** The samplers OTEL_TRACES_SAMPLER names (the OpenTelemetry specification's values). */
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * Which spans are recorded, from OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (a ratio from 0 to 1,
 * 1 when unset), `parentbased_traceidratio` when unset. Nothing is recorded when nothing exports: a span no
 * collector reads costs every request its attributes and timing for nothing, and a span that is not
 * recorded still has its ids for the log lines and the traceparent passed on.
 *
 * `parentbased_traceidratio` keeps a span whose parent (in this process or a caller) kept its own, and
 * drops one whose parent dropped; a caller's "sampled" is confirmed by the trace id's ratio before it is
 * followed, because the BFF's first callers are browsers, which record nothing and mark every call
 * sampled (any client could, and make every request recorded). The ratio decides alike for one trace id
 * in every process, so a trace the BFF keeps is kept whole by the travel API when its ratio is the same
 * or higher.
 */
export function tracesSampler(env: NodeJS.ProcessEnv, exporting: boolean): Sampler {
  if (!exporting) return new AlwaysOffSampler();
  const name = (env.OTEL_TRACES_SAMPLER ?? '').trim() || 'parentbased_traceidratio';
  const ratio = () => new TraceIdRatioBasedSampler(samplerRatio(env.OTEL_TRACES_SAMPLER_ARG));
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': {
      const byTraceId = ratio();
      return new ParentBasedSampler({ root: byTraceId, remoteParentSampled: byTraceId });
    }
    default:
      throw new Error(
        `OTEL_TRACES_SAMPLER is "${name}": it must be one of ${TRACES_SAMPLERS.join(', ')} (unset: parentbased_traceidratio).`,
      );
  }
}

function samplerRatio(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const ratio = Number(value);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new Error(`OTEL_TRACES_SAMPLER_ARG is "${value}": it must be a ratio from 0 to 1 (unset: 1).`);
  return ratio;
}

/** Calls whose URL is a credential (a push subscription's endpoint): no span, no metric, no traceparent. */
const UNTRACED_CALL = createContextKey('wayfare untraced call');

/**
 * Runs `work` (which starts an HTTP call with undici) so that the call is not instrumented: its URL is a
 * capability (a push endpoint) that no span attribute may carry, and its host is a third party that the
 * trace context is not sent to. The caller records what the call did in a span of its own.
 */
export function withoutCallTracing<T>(work: () => T): T {
  return context.with(context.active().setValue(UNTRACED_CALL, true), work);
}

/** Calls their caller times and gives their trace context itself (selfTimedCall): the instrumentation skips them. */
const SELF_TIMED_CALL = createContextKey('wayfare self-timed call');

/** `http.client.request.duration` as the undici instrumentation makes it, once telemetry started (enabled). */
let clientCallDuration: Histogram | undefined;

/** A call timed by its caller (selfTimedCall). */
export interface SelfTimedCall {
  /** Runs `send`, which starts the call with undici, out of the instrumentation's sight. */
  send<T>(send: () => T): T;
  /** The call ended with a response (its body read, or closed): records its duration. */
  answered(status: number, statusText: string): void;
  /** The call failed before a response: records its duration with the error's type. */
  failed(error: unknown): void;
}

/**
 * A call to `origin` that its caller times, and to which it gives the trace context, instead of the undici
 * instrumentation: one made in a trace that is not recorded (no collector, or the sampler dropped it).
 * For such a call the instrumentation would still parse its URL, read its headers, build, clean and
 * sample a span's attributes and make a context for a span no one records, on every call; what the call
 * must give does not need any of it: `traceparent` is added to `headers` here (the next hop continues
 * the trace, and learns it was not sampled), and the duration goes to the instrumentation's own
 * `http.client.request.duration` with the attributes it would have used, made once per method, status,
 * protocol and error. Undefined when the instrumentation should take the call: its trace is recorded,
 * there is no trace (the instrumentation starts one, and its sampler decides), the call is untraced
 * (withoutCallTracing), or telemetry is off.
 */
export function selfTimedCall(
  origin: URL,
  method: string,
  headers: Record<string, string>,
): SelfTimedCall | undefined {
  const histogram = clientCallDuration;
  if (histogram === undefined) return undefined;
  const active = context.active();
  const span = trace.getSpan(active);
  if (span === undefined || span.isRecording() || !isSpanContextValid(span.spanContext())) return undefined;
  if (active.getValue(UNTRACED_CALL) === true) return undefined;
  propagation.inject(active, headers);
  return new TimedCall(histogram, origin, method, active);
}

/** A call timed by its caller: what selfTimedCall gives. */
class TimedCall implements SelfTimedCall {
  readonly #histogram: Histogram;
  readonly #origin: URL;
  readonly #method: string;
  readonly #context: Context;
  readonly #startedAt = performance.now();

  constructor(histogram: Histogram, origin: URL, method: string, active: Context) {
    this.#histogram = histogram;
    this.#origin = origin;
    this.#method = method;
    this.#context = active;
  }

  send<T>(send: () => T): T {
    return context.with(this.#context.setValue(SELF_TIMED_CALL, true), send);
  }

  answered(status: number, statusText: string): void {
    // undici gives an HTTP/2 response no status text, and an HTTP/1.1 one its reason phrase (never
    // empty from a Node server); a plain http: origin is HTTP/1.1 (undici speaks HTTP/2 over TLS only).
    const version = statusText === '' && this.#origin.protocol === 'https:' ? '2' : '1.1';
    const origin = this.#origin;
    const method = this.#method;
    this.#record(status, version, () => ({
      ...originAttributes(origin, method),
      'http.response.status_code': status,
      'network.protocol.version': version,
      ...(status >= 400 ? { 'error.type': String(status) } : {}),
    }));
  }

  failed(error: unknown): void {
    // The instrumentation's error.type: the error's code, else its name; none for an abort.
    const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
    const type =
      name === 'AbortError' ? '' : ([code, name].find((one) => typeof one === 'string') ?? 'Error');
    const origin = this.#origin;
    const method = this.#method;
    this.#record(type, '', () => ({
      ...originAttributes(origin, method),
      ...(type === '' ? {} : { 'error.type': type }),
    }));
  }

  /** Records the duration into the attribute set of this origin, method, outcome and protocol. */
  #record(outcome: number | string, version: string, make: () => Attributes): void {
    const attributes = clientCallAttributes.get(make, this.#origin, this.#method, outcome, version);
    this.#histogram.record((performance.now() - this.#startedAt) / 1000, attributes);
  }
}

/**
 * Attribute sets made once and found again by the values they are made of, level by level (a Map per
 * value), so that a request or a call records into a set without building a key string or a new object for
 * the metrics SDK to copy. Bounded as the labels are: route templates, methods, statuses, protocols,
 * errors, and the travel API's origin (one URL object).
 */
export class AttributeSets<First extends object | string> {
  readonly #root = new Map<First, Map<string, Map<number | string, Map<string, Attributes>>>>();

  get(
    make: () => Attributes,
    first: First,
    second: string,
    third: number | string,
    fourth: string,
  ): Attributes {
    let bySecond = this.#root.get(first);
    if (bySecond === undefined) {
      bySecond = new Map<string, Map<number | string, Map<string, Attributes>>>();
      this.#root.set(first, bySecond);
    }
    let byThird = bySecond.get(second);
    if (byThird === undefined) {
      byThird = new Map<number | string, Map<string, Attributes>>();
      bySecond.set(second, byThird);
    }
    let byFourth = byThird.get(third);
    if (byFourth === undefined) {
      byFourth = new Map<string, Attributes>();
      byThird.set(third, byFourth);
    }
    let attributes = byFourth.get(fourth);
    if (attributes === undefined) byFourth.set(fourth, (attributes = make()));
    return attributes;
  }
}

/** The attribute sets of self-timed calls, by origin (its URL object), method, status or error, protocol. */
const clientCallAttributes = new AttributeSets<URL>();

/** What the undici instrumentation records of a call's method and origin. */
function originAttributes(origin: URL, method: string): Attributes {
  const scheme = origin.protocol.replace(':', '');
  const upper = method.toUpperCase();
  return {
    'http.request.method': KNOWN_METHODS.has(upper) ? upper : '_OTHER',
    'server.address': origin.hostname,
    'server.port': Number(origin.port || (scheme === 'https' ? 443 : 80)),
    'url.scheme': scheme,
  };
}

const KNOWN_METHODS = new Set([
  'CONNECT',
  'OPTIONS',
  'HEAD',
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'TRACE',
  'QUERY',
]);

/** The semantic conventions' buckets for HTTP durations, in seconds (the undici instrumentation's too). */
export const HTTP_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Telemetry {
  if (started) return started;
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const fastifyOtel = new FastifyOtelInstrumentation({
    // A span named by its route template, and no query string (search terms, cursors) in its attributes.
    requestHook: (span: Span, request: FastifyRequest) => {
      // The ids the request's log line carries (the observability plugin's onResponse hook).
      // The span's own context object: it carries both ids, so no copy is made per request.
      const ids = span.spanContext();
      if (isSpanContextValid(ids)) request.trace = ids;
      if (!span.isRecording()) return;
      span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched route'}`);
      span.setAttribute('url.path', withoutQuery(request.url));
    },
    // One span per request: a span per hook, or for the handler inside it, would multiply the cost and
    // say little (the calls the handler makes are spans of their own).
    instrumentHooks: false,
    instrumentHandler: false,
  });
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') {
    started = { serviceName, enabled: false, prometheus, fastifyOtel, flush: () => Promise.resolve() };
    return started;
  }
  const undici = new UndiciInstrumentation({
    ignoreRequestHook: () => {
      const active = context.active();
      return active.getValue(UNTRACED_CALL) === true || active.getValue(SELF_TIMED_CALL) === true;
    },
    requestHook: (span, request) => {
      if (!span.isRecording()) return;
      span.setAttributes({ 'url.full': `${request.origin}${withoutQuery(request.path)}`, 'url.query': '' });
    },
  });
  const exporting = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? '') !== '';
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    autoDetectResources: false,
    sampler: tracesSampler(env, exporting),
    // Spans go to a configured collector only, in batches that the standard OTEL_BSP_* variables size
    // (the SDK reads them for the exporter it is given); with none, no span is recorded (tracesSampler).
    ...(exporting
      ? { traceExporter: new OTLPTraceExporter() }
      : { spanProcessors: [new NoopSpanProcessor()] }),
    // W3C trace context alone unless OTEL_PROPAGATORS names others: the SDK's default adds W3C baggage,
    // which no hop of ours sends or reads, yet every extract and inject (each request, call and
    // notification) would go through it and the composite around both.
    ...((env.OTEL_PROPAGATORS ?? '').trim() === ''
      ? { textMapPropagator: new W3CTraceContextPropagator() }
      : {}),
    metricReaders: [prometheus],
    views: SECONDS_HISTOGRAMS.map((instrumentName) => ({
      instrumentName,
      name: `${instrumentName}_seconds`,
    })),
    logRecordProcessors: [],
    instrumentations: [undici, fastifyOtel],
  });
  sdk.start();
  setSpansNeverRecorded(!exporting);
  // The instrumentation's own instrument: same meter, name and description, so one metric holds both.
  clientCallDuration = metrics
    .getMeter(undici.instrumentationName, undici.instrumentationVersion)
    .createHistogram('http.client.request.duration', {
      description: 'Measures the duration of outbound HTTP requests.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: { explicitBucketBoundaries: HTTP_DURATION_BUCKETS },
    });
  let flushing: Promise<void> | undefined;
  started = {
    serviceName,
    enabled: true,
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
