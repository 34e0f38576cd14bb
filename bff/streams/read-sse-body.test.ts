import { describe, expect, it } from 'vitest';
import type { SseMessage } from '../../shared/sse.ts';
import { readSseBody, SseIdleTimeoutError } from './read-sse-body.ts';

function bodyOf(
  chunks: string[],
  { keepOpen = false } = {},
): { body: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!keepOpen) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled };
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

  it('gives up on a body that stays silent past the idle timeout, heartbeats resetting the clock', async () => {
    const encoder = new TextEncoder();
    let cancelled = false;
    let beats = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const beat = setInterval(() => {
          beats += 1;
          if (beats <= 3) controller.enqueue(encoder.encode(': heartbeat\n\n'));
          else clearInterval(beat);
        }, 20);
      },
      cancel() {
        cancelled = true;
      },
    });
    const started = performance.now();
    await expect(readSseBody(body, { onEvent: () => undefined, idleTimeoutMs: 50 })).rejects.toBeInstanceOf(
      SseIdleTimeoutError,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(cancelled).toBe(true);
  });
});
