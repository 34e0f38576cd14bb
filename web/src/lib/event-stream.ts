import { reconnectDelay } from '#shared/reconnect-delay.ts';
import { readSseStream, type SseMessage } from '#shared/sse.ts';
import { apiRequest, type ApiRequestOptions } from './api-client.ts';
import { BffError } from './bff-error.ts';
import { readErrorBody, readErrorEnvelope } from './read-error-body.ts';
import { safeJson } from './safe-json.ts';

/**
 * How a finite stream ended: explicitly, with an error, cut short, or stopped by the app. A `truncated`
 * end has the `reason` of the BFF's own `event: truncated` (`upstream-failed`, `server-shutdown`...,
 * `unknown` when unreadable); it has none when the connection itself ended without a last event (the
 * instance serving it died, a proxy dropped it).
 */
export type StreamEnd =
  | { kind: 'done' }
  | { kind: 'error'; error: BffError }
  | { kind: 'truncated'; reason?: string }
  | { kind: 'aborted' };

export interface EventStreamOptions extends Omit<ApiRequestOptions, 'accept'> {
  /** Called for every event that is not `done`, `error` or `truncated`, as it arrives. */
  onEvent: (message: SseMessage) => void;
  /** Called once the response headers arrived and the stream is open, with the BFF's request id. */
  onOpen?: (requestId: string | undefined) => void;
  /** Called with the server's `retry:` advice (milliseconds) for the next reconnect. */
  onRetry?: (milliseconds: number) => void;
}

/**
 * Reads one SSE stream from the BFF with fetch (so the anti-forgery header and POST bodies work),
 * hands each event over as it arrives and reports how the stream ended. Never retries on its own
 * (readResumableEventStream does, for a connection cut).
 */
export async function readEventStream(path: string, options: EventStreamOptions): Promise<StreamEnd> {
  const { onEvent, onOpen, onRetry, ...request } = options;
  const { signal } = request;
  let response: Response;
  try {
    response = await apiRequest(path, { ...request, accept: 'text/event-stream' });
  } catch (error) {
    if (signal?.aborted) return { kind: 'aborted' };
    if (error instanceof BffError) return { kind: 'error', error };
    throw error;
  }
  if (!response.body) return { kind: 'truncated' };
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  onOpen?.(requestId);
  try {
    for await (const message of readSseStream(response.body, { signal, onRetry })) {
      if (message.event === 'done') return { kind: 'done' };
      if (message.event === 'error') return { kind: 'error', error: streamError(message.data, requestId) };
      if (message.event === 'truncated') return { kind: 'truncated', reason: truncatedReason(message.data) };
      onEvent(message);
    }
  } catch (error) {
    if (signal?.aborted) return { kind: 'aborted' };
    if (error instanceof TypeError || error instanceof DOMException) return { kind: 'truncated' };
    throw error;
  }
  return signal?.aborted ? { kind: 'aborted' } : { kind: 'truncated' };
}

/** The data of an `event: error` is the error envelope (or its inner object) of the spec. */
export function streamError(data: string, requestId?: string): BffError {
  const json = safeJson(data);
  const body = readErrorEnvelope(json) ?? readErrorBody(json);
  if (body) return new BffError({ status: 200, body, requestId });
  return new BffError({
    status: 200,
    requestId,
    body: {
      code: 'STREAM_ERROR',
      message: 'The stream ended with an unreadable error',
      details: [],
      recoveryAction: 'RETRY_NOW',
      retryAfterSeconds: null,
    },
  });
}

function truncatedReason(data: string): string {
  const reason = (safeJson(data) as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : 'unknown';
}

/**
 * Whether the stream was cut by the way to the BFF rather than ended by the BFF's answer: the connection
 * ended without a last event (the instance serving it died, a front's worker went), or the instance said
 * it was going away (`server-shutdown`). The BFF's other `truncated` reasons are the travel API's own
 * stream ending early, which asking again does not mend.
 */
export function isConnectionCut(end: StreamEnd): boolean {
  return end.kind === 'truncated' && (end.reason === undefined || end.reason === 'server-shutdown');
}

/** Times a cut stream is opened again (after the first attempt), and the back-off before each. */
export const STREAM_RESUMES = 3;
const RESUME_BASE_MS = 250;
const RESUME_CAP_MS = 2_000;

export interface ResumableEventStreamOptions extends EventStreamOptions {
  /**
   * Called before the stream is opened again after a cut (attempt 1, 2, ...): what the earlier attempt
   * handed over stays the caller's, and the new stream sends everything again from the start.
   */
  onResume: (attempt: number) => void;
  /** Injectable for tests; returns a number in [0, 1). */
  random?: () => number;
}

/**
 * readEventStream, opened again when the connection is cut (isConnectionCut) before the stream's end: up
 * to STREAM_RESUMES more times, each after a short capped back-off with jitter (shared/reconnect-delay.ts:
 * 125-250 ms, then 250-500 ms, then 500-1,000 ms), so a search whose instance died resumes on another.
 * A reopened stream refused before it opens with a retryable error (the front's 502, a 503, a network
 * error) counts as one more cut. Ends with the last stream's end, or `truncated` when every attempt was
 * cut or a reopened stream was refused for good. Only for streams that are safe to ask for twice.
 */
export async function readResumableEventStream(
  path: string,
  options: ResumableEventStreamOptions,
): Promise<StreamEnd> {
  const { onResume, random, ...stream } = options;
  const { signal } = stream;
  let end = await readEventStream(path, stream);
  for (let attempt = 1; attempt <= STREAM_RESUMES && isConnectionCut(end); attempt += 1) {
    await pause(
      reconnectDelay(attempt - 1, { baseMs: RESUME_BASE_MS, capMs: RESUME_CAP_MS, random }),
      signal,
    );
    if (signal?.aborted) return { kind: 'aborted' };
    onResume(attempt);
    let opened = false;
    end = await readEventStream(path, {
      ...stream,
      onOpen: (requestId) => {
        opened = true;
        stream.onOpen?.(requestId);
      },
    });
    // Refused before it opened: no answer to the request, only to the asking again.
    if (end.kind === 'error' && !opened) {
      if (!RETRYABLE.has(end.error.recoveryAction)) return { kind: 'truncated' };
      end = { kind: 'truncated' };
    }
  }
  return end;
}

const RETRYABLE = new Set<string>(['RETRY_NOW', 'RETRY_LATER']);

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
