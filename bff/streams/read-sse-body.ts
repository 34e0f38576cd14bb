import type { Readable } from 'node:stream';
import { createParser } from 'eventsource-parser';
import { DEFAULT_MAX_EVENT_CHARS, TRACEPARENT, type SseMessage } from '#shared/sse.ts';

export interface ReadSseBodyOptions {
  signal?: AbortSignal;
  /** Called for every event in order; returning `false` stops the read (and destroys the body). */
  onEvent: (message: SseMessage) => boolean | void;
  onRetry?: (retryMs: number) => void;
  /**
   * Longest silence (no byte at all, heartbeat comments included) before the connection counts as dead:
   * the body is destroyed and the read rejects with SseIdleTimeoutError. A connection that died without
   * a FIN would otherwise be waited on forever.
   */
  idleTimeoutMs?: number;
}

export class SseIdleTimeoutError extends Error {
  override name = 'SseIdleTimeoutError';
}

export class SseBodyClosedError extends Error {
  override name = 'SseBodyClosedError';
}

/**
 * Reads an upstream SSE body (the Node stream the travel API client hands over) with one UTF-8 decoder
 * and one eventsource-parser, fed from the stream's 'data' events: no web ReadableStream, reader or
 * TransformStream, and no promise per chunk. The notification hub holds one upstream stream per signed-in
 * traveler for hours, so what each open stream keeps and what each event costs is counted (see
 * bench/sse.bench.ts). Resolves when the body ends or `onEvent` stops it; rejects with the signal's
 * reason on abort, when the body breaks or closes before its end, or when it stays silent for longer
 * than `idleTimeoutMs`. The body is always destroyed when the read is over.
 */
export function readSseBody(
  body: Readable,
  { signal, onEvent, onRetry, idleTimeoutMs }: ReadSseBodyOptions,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let over = false;
    let watchdog: NodeJS.Timeout | undefined;
    const finish = (error?: unknown) => {
      if (over) return;
      over = true;
      clearTimeout(watchdog);
      signal?.removeEventListener('abort', aborted);
      body.off('data', feed);
      body.off('end', ended);
      body.off('error', finish);
      body.off('close', closed);
      // Keeps a late 'error' from a destroyed socket from becoming an uncaught exception.
      body.on('error', ignore);
      if (!body.destroyed) body.destroy();
      if (error === undefined) resolve();
      else
        reject(error instanceof Error ? error : new Error('The stream ended abnormally', { cause: error }));
    };
    const aborted = () => finish(signal?.reason);
    const ended = () => finish();
    const closed = () => finish(new SseBodyClosedError('The stream closed before its end'));
    // The event's trace context (a `traceparent:` field, see encodeSseEvent): kept for the event it is in.
    let traceparent: string | undefined;
    // Error.stackTraceLimit outside the parser's work (feed): what the callbacks below run with.
    let stackTraceLimit = Error.stackTraceLimit;
    const withStacks = <T>(call: () => T): T => {
      const inParser = Error.stackTraceLimit;
      Error.stackTraceLimit = stackTraceLimit;
      try {
        return call();
      } finally {
        Error.stackTraceLimit = inParser;
      }
    };
    const parser = createParser({
      maxBufferSize: DEFAULT_MAX_EVENT_CHARS,
      onRetry: onRetry && ((retryMs) => withStacks(() => onRetry(retryMs))),
      onError: (error) => {
        if (
          error.type === 'unknown-field' &&
          error.field === 'traceparent' &&
          TRACEPARENT.test(error.value ?? '')
        )
          traceparent = error.value;
        else withStacks(() => finish(error));
      },
      onEvent: ({ event, data, id }) => {
        if (over) return;
        const message: SseMessage =
          id === undefined ? { event: event ?? 'message', data } : { event: event ?? 'message', data, id };
        if (traceparent !== undefined) message.traceparent = traceparent;
        traceparent = undefined;
        withStacks(() => {
          if (onEvent(message) === false) finish();
        });
      },
    });
    function feed(chunk: string): void {
      watchdog?.refresh();
      // eventsource-parser reports each field it does not know, the `traceparent` of every traced event
      // among them, as a ParseError it constructs, and V8 records a stack for every Error made: about
      // 7 µs a notification, more than the rest of its parsing (docs/benchmarks.md). Those errors' stacks
      // are never read (a malformed stream is reported by its message), so the parser runs with none;
      // the callbacks run with the process's limit again (withStacks).
      stackTraceLimit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        parser.feed(chunk);
      } finally {
        Error.stackTraceLimit = stackTraceLimit;
      }
    }

    if (signal?.aborted) {
      finish(signal.reason);
      return;
    }
    signal?.addEventListener('abort', aborted, { once: true });
    if (idleTimeoutMs !== undefined) {
      watchdog = setTimeout(
        () => finish(new SseIdleTimeoutError(`No data for ${idleTimeoutMs} ms`)),
        idleTimeoutMs,
      );
      watchdog.unref();
    }
    body.setEncoding('utf8');
    body.on('data', feed);
    // `on`, not `once`: finish takes every listener off, and `once` would keep a wrapper per listener for
    // the hours a notification stream is read.
    body.on('end', ended);
    body.on('error', finish);
    body.on('close', closed);
  });
}

function ignore(): void {}
