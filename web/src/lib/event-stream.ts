import { readSseStream, type SseMessage } from '#shared/sse.ts';
import { apiRequest, type ApiRequestOptions } from './api-client.ts';
import { BffError } from './bff-error.ts';
import { readErrorBody, readErrorEnvelope } from './read-error-body.ts';
import { safeJson } from './safe-json.ts';

/** How a finite stream ended: explicitly, with an error, cut short, or stopped by the app. */
export type StreamEnd =
  { kind: 'done' } | { kind: 'error'; error: BffError } | { kind: 'truncated' } | { kind: 'aborted' };

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
 * hands each event over as it arrives and reports how the stream ended. Never retries on its own:
 * re-running a search is the traveler's decision.
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
      if (message.event === 'truncated') return { kind: 'truncated' };
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
