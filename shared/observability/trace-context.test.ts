import { context, isSpanContextValid, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { startTelemetry } from './telemetry.ts';
import { activeTraceparent, inSpan } from './trace-context.ts';

// Telemetry as `npm start` runs it without a collector (OTEL_EXPORTER_OTLP_ENDPOINT unset): no span is
// ever recorded. (Once per process: the BFF's own test files start it the same way.)
startTelemetry('wayfare-test', {});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

describe('a span where no span is recorded', () => {
  it('is not made under a parent: the work runs in the parent’s trace and passes the same context on', async () => {
    const seen = await inSpan('wayfare-test', 'notification received', { traceparent: TRACEPARENT }, () =>
      Promise.resolve({ ids: trace.getActiveSpan()?.spanContext(), passedOn: activeTraceparent() }),
    );
    expect(seen.ids).toMatchObject({ traceId: TRACE_ID, spanId: PARENT_SPAN_ID });
    expect(seen.passedOn).toBe(TRACEPARENT);
  });

  it('is started without a parent, so the work still has a trace of its own to log and pass on', () => {
    const ids = inSpan('wayfare-test', 'notification dispatched', {}, () =>
      trace.getActiveSpan()?.spanContext(),
    );
    expect(ids !== undefined && isSpanContextValid(ids)).toBe(true);
    expect(ids?.traceId).not.toBe(TRACE_ID);
  });

  it('runs the work where it is when that is the parent already, and enters any other parent', () => {
    inSpan('wayfare-test', 'notification received', { traceparent: TRACEPARENT }, () => {
      const received = context.active();
      // The same notification delivered in the same call: nothing parsed, no context entered again.
      const delivered = inSpan('wayfare-test', 'delivery', { traceparent: TRACEPARENT }, () =>
        context.active(),
      );
      expect(delivered).toBe(received);
      expect(inSpan('wayfare-test', 'decision', {}, () => context.active())).toBe(received);
      // Another span of the trace, or the same span with other flags, is that parent.
      const sibling = `00-${TRACE_ID}-${'1'.repeat(16)}-01`;
      expect(inSpan('wayfare-test', 'delivery', { traceparent: sibling }, () => activeTraceparent())).toBe(
        sibling,
      );
      const unsampled = `00-${TRACE_ID}-${PARENT_SPAN_ID}-00`;
      expect(
        inSpan('wayfare-test', 'delivery', { traceparent: unsampled }, () => ({
          flags: trace.getActiveSpan()?.spanContext().traceFlags,
          passedOn: activeTraceparent(),
        })),
      ).toEqual({ flags: TraceFlags.NONE, passedOn: unsampled });
    });
  });

  it('passes on a parent read from a later version’s traceparent as version 00 writes it', () => {
    const later = `cc-${TRACE_ID}-${PARENT_SPAN_ID}-01-more`;
    const passedOn = inSpan('wayfare-test', 'notification received', { traceparent: later }, () => ({
      text: activeTraceparent(),
      // The delivery in the same call names the same parent by the text passed on.
      same: inSpan('wayfare-test', 'delivery', { traceparent: TRACEPARENT }, () => context.active()),
      outer: context.active(),
    }));
    expect(passedOn.text).toBe(TRACEPARENT);
    expect(passedOn.same).toBe(passedOn.outer);
  });

  it('still gives the work’s result and failure to the caller', async () => {
    expect(inSpan('wayfare-test', 'work', { traceparent: TRACEPARENT }, () => 42)).toBe(42);
    await expect(
      inSpan('wayfare-test', 'work', { traceparent: TRACEPARENT }, () => Promise.reject(new Error('no'))),
    ).rejects.toThrow('no');
  });
});
