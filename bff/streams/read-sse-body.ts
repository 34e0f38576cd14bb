import { createParser } from 'eventsource-parser';
import { DEFAULT_MAX_EVENT_CHARS, type SseMessage } from '../../shared/sse.ts';

export interface ReadSseBodyOptions {
  signal?: AbortSignal;
  /** Called for every event in order; returning `false` stops the read (and cancels the body). */
  onEvent: (message: SseMessage) => boolean | void;
  onRetry?: (retryMs: number) => void;
}

/**
 * Reads a long-lived SSE body with one reader, one TextDecoder and one parser, and no TransformStream.
 * shared/sse.ts `readSseStream` pipes through two TransformStreams, which costs about 28 KiB more per
 * open stream (measured with bench/sse.bench.ts); the notification hub holds one upstream stream per
 * signed-in traveler for hours, so it reads them this way. Resolves when the body ends or `onEvent`
 * stops it; rejects with the signal's reason on abort, or when the body breaks.
 */
export async function readSseBody(
  body: ReadableStream<Uint8Array>,
  { signal, onEvent, onRetry }: ReadSseBodyOptions,
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
  try {
    while (!stopped) {
      const next = await reader.read();
      signal?.throwIfAborted();
      if (next.done) return;
      parser.feed(decoder.decode(next.value, { stream: true }));
      if (parseError) throw parseError;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (stopped || signal?.aborted || parseError) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
