import { vi } from 'vitest';

export interface StubbedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body; or `chunks` for a streamed body. */
  json?: unknown;
  /** Text chunks of a streamed body, enqueued one by one. */
  chunks?: string[];
  /** Keep the streamed body open after the chunks (the server has not finished). */
  open?: boolean;
  /** Fail the streamed body after the chunks, as a dropped connection does. */
  failAfterChunks?: boolean;
}

export type FetchRoute = (url: string, init: RequestInit) => StubbedResponse | Promise<StubbedResponse>;

export function streamBody(chunks: string[], { open = false, failAfterChunks = false } = {}) {
  const encoder = new TextEncoder();
  if (failAfterChunks) {
    // The connection drops once the reader has taken every chunk: an error sooner discards those queued.
    const left = [...chunks];
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = left.shift();
        if (chunk === undefined) controller.error(new TypeError('network connection lost'));
        else controller.enqueue(encoder.encode(chunk));
      },
    });
  }
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(encoder.encode(chunk));
        await Promise.resolve();
      }
      if (!open) controller.close();
    },
  });
}

export function toResponse(stub: StubbedResponse): Response {
  const status = stub.status ?? 200;
  if (stub.chunks) {
    return new Response(streamBody(stub.chunks, { open: stub.open, failAfterChunks: stub.failAfterChunks }), {
      status,
      headers: { 'Content-Type': 'text/event-stream', ...stub.headers },
    });
  }
  return new Response(stub.json === undefined ? null : JSON.stringify(stub.json), {
    status,
    headers: { 'Content-Type': 'application/json', ...stub.headers },
  });
}

/** Replaces fetch with a router over the request URL; returns the mock to inspect calls. */
export function stubFetch(route: FetchRoute) {
  const mock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    return toResponse(await route(url, init));
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

export function envelope(
  code: string,
  recoveryAction: string,
  extra: { message?: string; details?: unknown[]; retryAfterSeconds?: number | null } = {},
) {
  return {
    error: {
      code,
      message: extra.message ?? `${code} happened`,
      details: extra.details ?? [],
      recoveryAction,
      retryAfterSeconds: extra.retryAfterSeconds ?? null,
    },
  };
}

/** The JSON body a request sent (the API client always sends JSON text). */
export function sentJson(init: RequestInit | undefined): unknown {
  return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
}
