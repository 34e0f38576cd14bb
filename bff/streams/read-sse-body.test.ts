import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { SseMessage } from '#shared/sse.ts';
import { readSseBody, SseBodyClosedError, SseIdleTimeoutError } from './read-sse-body.ts';

/** A body as undici hands it over: a Node stream of bytes, ended unless `keepOpen`. */
function bodyOf(chunks: string[], { keepOpen = false } = {}): { body: Readable; cancelled: () => boolean } {
  const body = new Readable({ read() {} });
  for (const chunk of chunks) body.push(Buffer.from(chunk, 'utf8'));
  if (!keepOpen) body.push(null);
  return { body, cancelled: () => body.destroyed };
}

describe('readSseBody', () => {
  it('parses events split across chunks and CRLF line ends, with ids and retry', async () => {
    const events: SseMessage[] = [];
    const retries: number[] = [];
    const { body } = bodyOf([
      'retry: 1500\r\nevent: notifi',
      'cation\r\nid: n-1\r\ndata: {"a"',
      ':1}\r',
      '\n\r\ndata: plain\n\n',
    ]);
    await readSseBody(body, {
      onEvent: (event) => void events.push(event),
      onRetry: (ms) => retries.push(ms),
    });
    expect(events).toEqual([
      { event: 'notification', id: 'n-1', data: '{"a":1}' },
      { event: 'message', data: 'plain' },
    ]);
    expect(retries).toEqual([1500]);
  });

  it('gives an event the trace context of its traceparent field, and ends on any other unknown field', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const events: SseMessage[] = [];
    const { body } = bodyOf([
      `event: notification\nid: n-1\ntraceparent: ${traceparent}\ndata: {}\n\n`,
      'event: notification\nid: n-2\ndata: {}\n\n',
      'event: notification\ntraceparent: not-a-traceparent\ndata: {}\n\n',
    ]);
    await expect(readSseBody(body, { onEvent: (event) => void events.push(event) })).rejects.toThrow(
      /Unknown field "traceparent"/,
    );
    expect(events).toEqual([
      { event: 'notification', id: 'n-1', data: '{}', traceparent },
      { event: 'notification', id: 'n-2', data: '{}' },
    ]);
  });

  it('leaves the process its stack traces: in the handlers, and after the read', async () => {
    const limit = Error.stackTraceLimit;
    const stacks: (string | undefined)[] = [];
    const { body } = bodyOf([
      'retry: 100\ntraceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\ndata: {}\n\n',
      'colour: blue\ndata: {}\n\n',
    ]);
    const read = readSseBody(body, {
      onEvent: () => void stacks.push(new Error('in the handler').stack),
      onRetry: () => void stacks.push(new Error('in the retry handler').stack),
    });
    const error = await read.catch((failure: unknown) => failure);
    expect(String(error)).toMatch(/Unknown field "colour"/);
    expect(stacks).toHaveLength(2);
    for (const stack of stacks) expect(stack).toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('stops and cancels the body when the handler returns false', async () => {
    const events: string[] = [];
    const { body, cancelled } = bodyOf(['event: done\ndata: {}\n\nevent: after\ndata: {}\n\n'], {
      keepOpen: true,
    });
    await readSseBody(body, {
      onEvent: (event) => {
        events.push(event.event);
        return event.event !== 'done';
      },
    });
    expect(events).toEqual(['done']);
    expect(cancelled()).toBe(true);
  });

  it('rejects with the reason and cancels the body when aborted mid-stream', async () => {
    const { body, cancelled } = bodyOf(['data: 1\n\n'], { keepOpen: true });
    const abort = new AbortController();
    const reading = readSseBody(body, {
      signal: abort.signal,
      onEvent: () => abort.abort(new Error('gone')),
    });
    await expect(reading).rejects.toThrow('gone');
    expect(cancelled()).toBe(true);
  });

  // On a fake clock: with real timers, a loaded machine ran the 50 ms watchdog before a heartbeat timer
  // that was due earlier, and the body was given up on while its heartbeats were on time.
  it('gives up on a body that stays silent past the idle timeout, heartbeats resetting the clock', async () => {
    vi.useFakeTimers();
    try {
      const body = new Readable({ read() {} });
      let outcome: unknown = 'reading';
      const reading = readSseBody(body, { onEvent: () => undefined, idleTimeoutMs: 50 }).then(
        () => (outcome = 'ended'),
        (error: unknown) => (outcome = error),
      );
      // Three heartbeats 40 ms apart, each before 50 ms of silence are up: 120 ms without giving up.
      for (let beat = 0; beat < 3; beat += 1) {
        await vi.advanceTimersByTimeAsync(40);
        body.push(Buffer.from(': heartbeat\n\n'));
      }
      await vi.advanceTimersByTimeAsync(49);
      expect(outcome).toBe('reading');
      await vi.advanceTimersByTimeAsync(1);
      await reading;
      expect(outcome).toBeInstanceOf(SseIdleTimeoutError);
      expect(body.destroyed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('decodes a character split across two chunks', async () => {
    const bytes = Buffer.from('data: café\n\n', 'utf8');
    const cut = bytes.indexOf(0xc3) + 1;
    const body = new Readable({ read() {} });
    body.push(bytes.subarray(0, cut));
    body.push(bytes.subarray(cut));
    body.push(null);
    const data: string[] = [];
    await readSseBody(body, { onEvent: (event) => void data.push(event.data) });
    expect(data).toEqual(['café']);
  });

  it('rejects when the body breaks, and when it closes without its end', async () => {
    const broken = bodyOf(['data: 1\n\n'], { keepOpen: true }).body;
    const reading = readSseBody(broken, { onEvent: () => void broken.destroy(new Error('socket hang up')) });
    await expect(reading).rejects.toThrow('socket hang up');

    const cut = bodyOf(['data: 1\n\n'], { keepOpen: true }).body;
    const cutReading = readSseBody(cut, { onEvent: () => void cut.destroy() });
    await expect(cutReading).rejects.toBeInstanceOf(SseBodyClosedError);
  });

  it('rejects at once with the reason when the signal was already aborted', async () => {
    const { body, cancelled } = bodyOf(['data: 1\n\n']);
    const events: string[] = [];
    await expect(
      readSseBody(body, {
        signal: AbortSignal.abort(new Error('too late')),
        onEvent: (e) => void events.push(e.data),
      }),
    ).rejects.toThrow('too late');
    expect(events).toEqual([]);
    expect(cancelled()).toBe(true);
  });
});
