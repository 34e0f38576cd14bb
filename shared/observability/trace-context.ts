import { isTracingSuppressed } from '@opentelemetry/core';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';

/**
 * The `traceparent` a span context was read from, kept on the context where inSpan enters it as the parent
 * of work that starts no span (no span is ever recorded): exactly the text the W3C propagator writes for
 * it, so that passing the context on gives that text back instead of writing it again, and a message
 * carrying it is known to name the context it came from (a notification received and delivered in one call).
 */
const READ_FROM = Symbol('wayfare traceparent read from');

function readFrom(span: SpanContext | undefined): string | undefined {
  const text: unknown = span === undefined ? undefined : Reflect.get(span, READ_FROM);
  return typeof text === 'string' ? text : undefined;
}

/** The W3C traceparent of the active span, when there is one (for a header, an SSE field, a message). */
export function activeTraceparent(): string | undefined {
  const active = context.active();
  const text = readFrom(trace.getSpanContext(active));
  if (text !== undefined && !isTracingSuppressed(active)) return text;
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  return carrier.traceparent;
}

const tracers = new Map<string, Tracer>();

const HEX = '0123456789abcdef';

/** Version 00 as the W3C propagator writes it: 55 characters, nothing after the flags. */
function isVersion00(traceparent: string): boolean {
  return traceparent.length === 55 && traceparent.startsWith('00-');
}

/**
 * True when `traceparent` names `span` as W3C trace context writes it: version 00, then its trace id, span
 * id and flags in lower-case hex. A comparison, not a parse, character by character: a `traceparent` that
 * differs in any way goes to the propagator.
 */
function names(traceparent: string, span: SpanContext): boolean {
  const text = readFrom(span);
  if (text !== undefined) return text === traceparent;
  const flags = span.traceFlags & 0xff;
  return (
    isVersion00(traceparent) &&
    traceparent.startsWith(span.traceId, 3) &&
    traceparent.charCodeAt(35) === 0x2d &&
    traceparent.startsWith(span.spanId, 36) &&
    traceparent.charCodeAt(52) === 0x2d &&
    traceparent.charCodeAt(53) === HEX.charCodeAt(flags >> 4) &&
    traceparent.charCodeAt(54) === HEX.charCodeAt(flags & 0xf)
  );
}

/** Set by startTelemetry: no span of this process is ever recorded (telemetry on, no collector). */
let spansNeverRecorded = false;

/**
 * Tells inSpan whether no span of this process can ever be recorded: true once telemetry has started
 * without a collector, whose sampler drops every span (shared/observability/telemetry.ts, tracesSampler).
 */
export function setSpansNeverRecorded(never: boolean): void {
  spansNeverRecorded = never;
}

/** One tracer per name, looked up once (a notification's delivery starts two spans). */
function tracerOf(name: string): Tracer {
  let tracer = tracers.get(name);
  if (tracer === undefined) {
    tracer = trace.getTracer(name);
    tracers.set(name, tracer);
  }
  return tracer;
}

/**
 * Runs `work` in a span of its own: a child of the span `traceparent` names when given (the context a
 * message carried from another process), of the active span otherwise, or the root of a new trace.
 * The span ends when `work` returns or its promise settles.
 *
 * When no span can be recorded (no collector) and there is a parent, `work` runs in the parent's context
 * instead: the span would be dropped by the sampler as it starts, yet still cost its ids, its attributes
 * and a context of its own, once per notification and per delivery (a burst to every traveler makes
 * thousands). The log lines of `work` carry the parent's trace and span ids, and what it passes on
 * (activeTraceparent) continues the same trace. When that parent is the active context already (the
 * active span, or the span `traceparent` names: a notification this process received and delivers in
 * the same call, with the embedded store), `work` simply runs, without the `traceparent` parsed or a
 * context entered again. Without a parent a span is still started: its trace id is the one the log
 * lines and the next hops carry.
 */
export function inSpan<T>(
  tracerName: string,
  name: string,
  options: { attributes?: Attributes; traceparent?: string | undefined },
  work: () => T,
): T {
  const { traceparent } = options;
  if (spansNeverRecorded) {
    const active = trace.getSpanContext(context.active());
    if (active !== undefined && (traceparent === undefined || names(traceparent, active))) return work();
  }
  const parent =
    traceparent === undefined ? context.active() : propagation.extract(ROOT_CONTEXT, { traceparent });
  if (spansNeverRecorded) {
    const read = trace.getSpanContext(parent);
    if (read !== undefined) {
      // Kept only when it is what the propagator would write: version 00, nothing after the flags, and
      // flags below 0x10 (written as one hex digit after a 0).
      if (
        traceparent !== undefined &&
        isVersion00(traceparent) &&
        traceparent.charCodeAt(53) === 0x30 &&
        read.traceState === undefined
      )
        Reflect.set(read, READ_FROM, traceparent);
      return context.with(parent, work);
    }
  }
  return tracerOf(tracerName).startActiveSpan(
    name,
    { attributes: options.attributes ?? {} },
    parent,
    (span) => {
      const failed = () => span.setStatus({ code: SpanStatusCode.ERROR });
      let result: T;
      try {
        result = work();
      } catch (error) {
        failed();
        span.end();
        throw error;
      }
      if (result instanceof Promise) {
        return result.then(
          (value: unknown) => {
            span.end();
            return value;
          },
          (error: unknown) => {
            failed();
            span.end();
            throw error;
          },
        ) as T;
      }
      span.end();
      return result;
    },
  );
}
