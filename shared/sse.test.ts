import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  DEFAULT_MAX_EVENT_CHARS,
  SseDataError,
  encodeSseComment,
  encodeSseEvent,
  parseSseData,
  readSseStream,
} from './sse.ts';
import type { SseEventInit, SseMessage } from './sse.ts';

const encoder = new TextEncoder();

function streamOf(chunks: readonly (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

/** A body that stays open until cancelled, recording the reason it was cancelled with. */
function openStream(first: string): { body: ReadableStream<Uint8Array>; cancelled: Promise<unknown> } {
  let onCancel: (reason: unknown) => void = () => undefined;
  const cancelled = new Promise<unknown>((resolve) => {
    onCancel = resolve;
  });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first));
    },
    cancel(reason) {
      onCancel(reason);
    },
  });
  return { body, cancelled };
}

async function collect(
  body: ReadableStream<Uint8Array>,
  options?: Parameters<typeof readSseStream>[1],
): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readSseStream(body, options)) messages.push(message);
  return messages;
}

describe('encodeSseEvent', () => {
  it('writes event, id, retry and the JSON data, then the blank line that dispatches it', () => {
    expect(
      encodeSseEvent({ event: 'notification', id: 'n-1', retry: 3000, data: { title: 'Gate B12' } }),
    ).toBe('event: notification\nid: n-1\nretry: 3000\ndata: {"title":"Gate B12"}\n\n');
  });

  it('sends string data as its JSON text, so line breaks inside it stay on one line', () => {
    expect(encodeSseEvent({ data: 'line one\nline two' })).toBe('data: "line one\\nline two"\n\n');
  });

  it('splits multi-line raw data into one data line per line, whatever the line ends', () => {
    expect(encodeSseEvent({ event: 'fare', rawData: 'first\nsecond\r\nthird\rfourth' })).toBe(
      'event: fare\ndata: first\ndata: second\ndata: third\ndata: fourth\n\n',
    );
  });

  it('writes the trace context as a traceparent field, and refuses one that is not a W3C traceparent', () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(encodeSseEvent({ event: 'notification', id: 'n-1', traceparent, data: {} })).toBe(
      `event: notification\nid: n-1\ntraceparent: ${traceparent}\ndata: {}\n\n`,
    );
    expect(() => encodeSseEvent({ traceparent: '00-x\ndata: injected', data: {} })).toThrow(TypeError);
  });

  it('writes a retry-only block with no data line', () => {
    expect(encodeSseEvent({ retry: 0 })).toBe('retry: 0\n\n');
  });

  it.each<[string, SseEventInit]>([
    ['a line break in the event name', { event: 'done\ndata: forged', data: {} }],
    ['a line break in the id', { id: 'a\rb', data: {} }],
    ['NUL in the id', { id: 'a\0b', data: {} }],
  ])('refuses %s, which would forge fields', (_label, init) => {
    expect(() => encodeSseEvent(init)).toThrow(TypeError);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses a retry of %s', (retry) => {
    expect(() => encodeSseEvent({ retry })).toThrow(RangeError);
  });

  it('refuses data that has no JSON form', () => {
    expect(() => encodeSseEvent({ data: () => 1 })).toThrow(TypeError);
    expect(() => encodeSseEvent({ data: Symbol('x') })).toThrow(TypeError);
  });

  it('refuses both data and rawData', () => {
    expect(() => encodeSseEvent({ data: {}, rawData: '{}' })).toThrow(TypeError);
  });
});

describe('encodeSseComment', () => {
  it('writes each line as a comment line', () => {
    expect(encodeSseComment('heartbeat')).toBe(': heartbeat\n\n');
    expect(encodeSseComment('one\r\ntwo')).toBe(': one\n: two\n\n');
  });

  it('is read back as comments, not as events', async () => {
    const comments: string[] = [];
    const messages = await collect(
      streamOf([encodeSseComment('heartbeat'), encodeSseEvent({ data: 1 }), encodeSseComment('a\nb')]),
      { onComment: (comment) => comments.push(comment) },
    );
    expect(comments).toEqual(['heartbeat', 'a', 'b']);
    expect(messages).toEqual([{ event: 'message', data: '1' }]);
  });
});

describe('readSseStream', () => {
  const wire =
    ': opening comment\n' +
    'retry: 2500\n\n' +
    'event: notification\nid: 7f0c\ndata: {"title":"Zürich — 東京 delayed"}\n\n' +
    'data: first line\ndata: second line\n\n' +
    'event: done\ndata: {}\n\n';
  const expected: SseMessage[] = [
    { event: 'notification', id: '7f0c', data: '{"title":"Zürich — 東京 delayed"}' },
    { event: 'message', data: 'first line\nsecond line' },
    { event: 'done', data: '{}' },
  ];

  it('yields each event with its name, data and id, naming an unnamed event "message"', async () => {
    expect(await collect(streamOf([wire]))).toEqual(expected);
  });

  it('yields the same events however the bytes are split in two, at every byte position', async () => {
    const bytes = encoder.encode(wire);
    for (let at = 0; at <= bytes.length; at += 1) {
      const messages = await collect(streamOf([bytes.slice(0, at), bytes.slice(at)]));
      expect(messages, `split at byte ${at}`).toEqual(expected);
    }
  });

  it('yields the same events when every byte arrives alone', async () => {
    const bytes = encoder.encode(wire);
    const single = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(streamOf(single))).toEqual(expected);
  });

  it('yields the same events for any chunking of the bytes', async () => {
    const bytes = encoder.encode(wire);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const bounds = [0, ...cuts.toSorted((a, b) => a - b), bytes.length];
          const chunks = bounds.slice(1).map((end, index) => bytes.slice(bounds[index], end));
          expect(await collect(streamOf(chunks))).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('reads %s line ends, also when a line end is split across chunks', async (_label, eol) => {
    const text = wire.replaceAll('\n', eol);
    expect(await collect(streamOf([text]))).toEqual(expected);
    for (let at = 1; at < text.length; at += 1) {
      expect(await collect(streamOf([text.slice(0, at), text.slice(at)])), `split at ${at}`).toEqual(
        expected,
      );
    }
  });

  it('reports retry and comment fields through their callbacks', async () => {
    const retries: number[] = [];
    const comments: string[] = [];
    await collect(streamOf([wire]), {
      onRetry: (retry) => retries.push(retry),
      onComment: (comment) => comments.push(comment),
    });
    expect(retries).toEqual([2500]);
    expect(comments).toEqual(['opening comment']);
  });

  it('does not yield an event the stream cut off before its blank line', async () => {
    const messages = await collect(
      streamOf(['event: fare\ndata: {"n":1}\n\n', 'event: fare\ndata: {"n":2}\n', 'data: {"n":3}']),
    );
    expect(messages).toEqual([{ event: 'fare', data: '{"n":1}' }]);
  });

  it('ends when an empty body ends', async () => {
    expect(await collect(streamOf([]))).toEqual([]);
  });

  it('round-trips whatever encodeSseEvent writes', async () => {
    const lineFree = fc.string({ maxLength: 20 }).filter((text) => !/[\r\n\0]/.test(text));
    const eventInit = fc.record({
      event: fc.stringMatching(/^[a-z][a-z.-]{0,15}$/),
      id: lineFree.filter((id) => id.length > 0),
      data: fc.jsonValue(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(eventInit, { maxLength: 8 }), async (events) => {
        const messages = await collect(streamOf(events.map((init) => encodeSseEvent(init))));
        expect(messages).toEqual(
          events.map(({ event, id, data }) => ({ event, id, data: JSON.stringify(data) })),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('round-trips multi-line raw data as the lines joined by LF', async () => {
    const messages = await collect(streamOf([encodeSseEvent({ rawData: 'a\r\nb\rc\nd' })]));
    expect(messages).toEqual([{ event: 'message', data: 'a\nb\nc\nd' }]);
  });

  it('reads a fetch Response body event by event while the server is still sending', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      response.write(encodeSseEvent({ event: 'notification', id: '1', data: { n: 1 } }));
      void released.then(() => {
        response.end(encodeSseEvent({ event: 'done', data: {} }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      if (!response.body) throw new Error('the response has no body');
      const seen: SseMessage[] = [];
      for await (const message of readSseStream(response.body)) {
        seen.push(message);
        release();
      }
      expect(seen).toEqual([
        { event: 'notification', id: '1', data: '{"n":1}' },
        { event: 'done', data: '{}' },
      ]);
    } finally {
      release();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('readSseStream and a runaway stream', () => {
  it('throws and cancels the body when one event outgrows the buffer limit', async () => {
    const { body, cancelled } = openStream(`data: ${'x'.repeat(2048)}`);
    await expect(collect(body, { maxBufferSize: 1024 })).rejects.toMatchObject({
      name: 'ParseError',
      type: 'max-buffer-size-exceeded',
    });
    await expect(cancelled).resolves.toBeDefined();
  });

  it('reads events up to the limit', async () => {
    const data = 'x'.repeat(1000);
    expect(await collect(streamOf([`data: ${data}\n\n`]), { maxBufferSize: 1024 })).toEqual([
      { event: 'message', data },
    ]);
  });

  it('bounds every read by default', async () => {
    const { body, cancelled } = openStream(`data: ${'x'.repeat(DEFAULT_MAX_EVENT_CHARS)}`);
    await expect(collect(body)).rejects.toMatchObject({ type: 'max-buffer-size-exceeded' });
    await expect(cancelled).resolves.toBeDefined();
  });
});

describe('readSseStream and aborting', () => {
  it('throws the abort reason and cancels the body when aborted while waiting for data', async () => {
    const { body, cancelled } = openStream('data: 1\n\n');
    const controller = new AbortController();
    const messages = readSseStream(body, { signal: controller.signal });
    await expect(messages.next()).resolves.toEqual({ done: false, value: { event: 'message', data: '1' } });
    const waiting = messages.next();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(cancelled).resolves.toMatchObject({ name: 'AbortError' });
  });

  it('throws the abort reason when aborted while the reader handles an event', async () => {
    const { body, cancelled } = openStream('data: 1\n\ndata: 2\n\n');
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const message of readSseStream(body, { signal: controller.signal })) {
        seen.push(message.data);
        controller.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    await expect(cancelled).resolves.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['1']);
  });

  it('throws at once for a signal that is already aborted', async () => {
    const { body } = openStream('data: 1\n\n');
    const reason = new Error('left the page');
    await expect(collect(body, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('cancels the body when the reader leaves the loop early', async () => {
    const { body, cancelled } = openStream('data: 1\n\ndata: 2\n\n');
    for await (const message of readSseStream(body)) {
      expect(message.data).toBe('1');
      break;
    }
    await expect(cancelled).resolves.toBeUndefined();
  });
});

describe('parseSseData', () => {
  const FareSchema = z.object({ amount: z.number(), currency: z.string() });

  it('returns the JSON data parsed by the schema', () => {
    expect(parseSseData({ event: 'fare', data: '{"amount":120,"currency":"EUR"}' }, FareSchema)).toEqual({
      amount: 120,
      currency: 'EUR',
    });
  });

  it('throws SseDataError naming the event for data that is not JSON', () => {
    expect(() => parseSseData({ event: 'fare', data: '{amount' }, FareSchema)).toThrow(SseDataError);
    expect(() => parseSseData({ event: 'fare', data: '' }, FareSchema)).toThrow(/"fare" event/);
  });

  it('throws SseDataError carrying the validation issues for data of another shape', () => {
    let caught: unknown;
    try {
      parseSseData({ event: 'fare', data: '{"amount":"120"}' }, FareSchema);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SseDataError);
    expect((caught as SseDataError).event).toBe('fare');
    expect((caught as SseDataError).cause).toBeInstanceOf(z.ZodError);
  });
});
