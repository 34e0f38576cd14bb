import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace, type Context } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { AttributeSets, tracesSampler } from './telemetry.ts';

const EXPORTING = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
const SPAN_ID = '00f067aa0ba902b7';

/** 400 trace ids as random as a process makes them (and the same every run), so a ratio keeps about its share. */
const TRACE_IDS = Array.from({ length: 400 }, (_, index) =>
  createHash('md5').update(String(index)).digest('hex'),
);

function parent(sampled: boolean, isRemote: boolean): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: TRACE_IDS[0] as string,
    spanId: SPAN_ID,
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote,
  });
}

/** How many of TRACE_IDS the sampler records under `context`. */
function kept(env: NodeJS.ProcessEnv, context: Context = ROOT_CONTEXT, exporting = true): number {
  const sampler = tracesSampler(env, exporting);
  return TRACE_IDS.filter(
    (traceId) =>
      sampler.shouldSample(context, traceId, 'GET /api/trips', SpanKind.SERVER, {}, []).decision ===
      SamplingDecision.RECORD_AND_SAMPLED,
  ).length;
}

describe('which spans are recorded', () => {
  it('records none when nothing exports them, whatever the caller asked', () => {
    expect(kept({}, ROOT_CONTEXT, false)).toBe(0);
    expect(kept({ OTEL_TRACES_SAMPLER: 'always_on' }, parent(true, true), false)).toBe(0);
  });

  it('records every trace by default once a collector is configured (OTEL_TRACES_SAMPLER_ARG unset is 1)', () => {
    expect(kept(EXPORTING)).toBe(TRACE_IDS.length);
  });

  it('keeps the share of new traces that OTEL_TRACES_SAMPLER_ARG gives, decided by the trace id', () => {
    const tenth = kept({ ...EXPORTING, OTEL_TRACES_SAMPLER_ARG: '0.1' });
    expect(tenth).toBeGreaterThan(20);
    expect(tenth).toBeLessThan(60);
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER_ARG: '0' })).toBe(0);
    // The same trace ids every time: another process with the same ratio keeps the same traces.
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER_ARG: '0.1' })).toBe(tenth);
  });

  it('does not let a caller’s "sampled" force recording: the ratio confirms it, and a dropped caller stays dropped', () => {
    const tenth = kept({ ...EXPORTING, OTEL_TRACES_SAMPLER_ARG: '0.1' });
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER_ARG: '0.1' }, parent(true, true))).toBe(tenth);
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER_ARG: '0' }, parent(true, true))).toBe(0);
    expect(kept(EXPORTING, parent(false, true))).toBe(0);
  });

  it('follows a parent of the same process, so a kept trace keeps all its spans', () => {
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER_ARG: '0' }, parent(true, false))).toBe(TRACE_IDS.length);
    expect(kept(EXPORTING, parent(false, false))).toBe(0);
  });

  it('takes the other samplers the specification names', () => {
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER: 'always_off' })).toBe(0);
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER: 'always_on' }, parent(false, true))).toBe(
      TRACE_IDS.length,
    );
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER: 'parentbased_always_on' }, parent(true, true))).toBe(
      TRACE_IDS.length,
    );
    expect(kept({ ...EXPORTING, OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).toBe(0);
    expect(
      kept(
        { ...EXPORTING, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
        parent(true, false),
      ),
    ).toBe(0);
  });

  it('refuses a sampler or a ratio it does not know, saying what it takes', () => {
    expect(() => tracesSampler({ ...EXPORTING, OTEL_TRACES_SAMPLER: 'sometimes' }, true)).toThrow(
      /OTEL_TRACES_SAMPLER is "sometimes": it must be one of always_on, .*parentbased_traceidratio/,
    );
    for (const ratio of ['1.5', '-0.1', 'half'])
      expect(() => tracesSampler({ ...EXPORTING, OTEL_TRACES_SAMPLER_ARG: ratio }, true)).toThrow(
        `OTEL_TRACES_SAMPLER_ARG is "${ratio}": it must be a ratio from 0 to 1`,
      );
  });
});

describe('which headers carry the trace context', () => {
  /** The headers the process's propagator writes once telemetry started with `env` (a process of its own). */
  function propagatedFields(env: NodeJS.ProcessEnv): string[] {
    const script = `
      const { startTelemetry } = await import(${JSON.stringify(new URL('./telemetry.ts', import.meta.url).href)});
      const { propagation } = await import('@opentelemetry/api');
      startTelemetry('wayfare-test');
      console.log(JSON.stringify(propagation.fields()));
      process.exit(0);`;
    const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    });
    return JSON.parse(output.trim().split('\n').at(-1) ?? '[]') as string[];
  }

  it('is W3C trace context alone by default, and what OTEL_PROPAGATORS names when it is set', () => {
    expect(propagatedFields({}).sort()).toEqual(['traceparent', 'tracestate']);
    expect(propagatedFields({ OTEL_PROPAGATORS: 'tracecontext,baggage' }).sort()).toEqual([
      'baggage',
      'traceparent',
      'tracestate',
    ]);
  });
});

describe('AttributeSets', () => {
  it('makes a set once per combination of values and gives that same set again', () => {
    const sets = new AttributeSets<string>();
    let made = 0;
    const make = (method: string, status: number) => () => {
      made += 1;
      return { 'http.request.method': method, 'http.response.status_code': status };
    };
    const first = sets.get(make('GET', 200), '/api/trips', 'GET', 200, 'http');
    expect(sets.get(make('GET', 200), '/api/trips', 'GET', 200, 'http')).toBe(first);
    expect(first).toEqual({ 'http.request.method': 'GET', 'http.response.status_code': 200 });
    expect(made).toBe(1);
    // Each value tells sets apart, a status and the same text among them.
    const others = [
      sets.get(make('GET', 404), '/api/trips', 'GET', 404, 'http'),
      sets.get(make('GET', 200), '/api/trips', 'GET', '200', 'http'),
      sets.get(make('POST', 200), '/api/trips', 'POST', 200, 'http'),
      sets.get(make('GET', 200), '/api/trips', 'GET', 200, 'https'),
      sets.get(make('GET', 200), '', 'GET', 200, 'http'),
    ];
    expect(new Set([first, ...others]).size).toBe(6);
    expect(made).toBe(6);
  });
});
