import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Tracer,
} from '@opentelemetry/api';

/** The W3C traceparent of the active span, when there is one (for a header, an SSE field, a message). */
export function activeTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

const tracers = new Map<string, Tracer>();

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
 */
export function inSpan<T>(
  tracerName: string,
  name: string,
  options: { attributes?: Attributes; traceparent?: string | undefined },
  work: () => T,
): T {
  const parent =
    options.traceparent === undefined
      ? context.active()
      : propagation.extract(ROOT_CONTEXT, { traceparent: options.traceparent });
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
