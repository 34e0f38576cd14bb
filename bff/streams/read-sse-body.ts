import { createParser } from 'eventsource-parser';
import { DEFAULT_MAX_EVENT_CHARS, type SseMessage } from '../../shared/sse.ts';

export interface ReadSseBodyOptions {
  signal?: AbortSignal;
  /** Called for every event in order; returning `false` stops the read (and cancels the body). */
  onEvent: (message: SseMessage) => boolean | void;
  onRetry?: (retryMs: number) => void;
  /**
   * Longest silence (no byte at all, heartbeat comments included) before the connection counts as dead:
   * the body is cancelled and the read rejects with SseIdleTimeoutError. A connection that died without
   * a FIN would otherwise be waited on forever.
   */
  idleTimeoutMs?: number;
}

export class SseIdleTimeoutError extends Error {
  override name = 'SseIdleTimeoutError';
}

/**
 * Reads an upstream SSE body with one reader, one TextDecoder and one parser, and no TransformStream.
 * shared/sse.ts `readSseStream` pipes through two TransformStreams, which costs about 28 KiB more per
 * open stream (measured with bench/sse.bench.ts); the notification hub holds one upstream stream per
 * signed-in traveler for hours, and the relays need the idle watchdog, so both read this way. Resolves when the body ends or `onEvent`
 * stops it; rejects with the signal's reason on abort, when the body breaks, or when it stays silent for
 * longer than `idleTimeoutMs`.
 */
export async function readSseBody(
  body: ReadableStream<Uint8Array>,
  { signal, onEvent, onRetry, idleTimeoutMs }: ReadSseBodyOptions,
): Promise<void> {
  signal?.throwIfAborted();
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let stopped = false;
  let parseError: Error | undefined;
  const parser = createParser({
    maxBufferSize: DEFAULT_MAX_EVENT_CHARS,
    onRetry,
    onError: (error) => {
      parseError = error;
    },
    onEvent: ({ event, data, id }) => {
      if (stopped) return;
      const message: SseMessage =
        id === undefined ? { event: event ?? 'message', data } : { event: event ?? 'message', data, id };
      if (onEvent(message) === false) stopped = true;
    },
  });
  const cancel = () => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  let idle = false;
  const watchdog =
    idleTimeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          idle = true;
          reader.cancel().catch(() => undefined);
        }, idleTimeoutMs);
  watchdog?.unref();
  try {
    while (!stopped) {
      const next = await reader.read();
      signal?.throwIfAborted();
      if (idle) throw new SseIdleTimeoutError(`No data for ${idleTimeoutMs} ms`);
      if (next.done) return;
      watchdog?.refresh();
      parser.feed(decoder.decode(next.value, { stream: true }));
      if (parseError) throw parseError;
    }
  } finally {
    clearTimeout(watchdog);
    signal?.removeEventListener('abort', cancel);
    if (stopped || signal?.aborted || parseError) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
