import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { SseFrame } from './sse-frame.ts';

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
} as const;
/** HTTP/1.1 only: HTTP/2 forbids connection-specific headers (RFC 9113, 8.2.2). */
const HTTP1_SSE_HEADERS = { ...SSE_HEADERS, Connection: 'keep-alive' } as const;

/**
 * Security headers that only mean something on a document the browser renders. An event stream is read
 * by fetch or EventSource and never rendered, so these go (each costs header bytes that a stream's
 * response keeps for its whole life); nosniff, Cross-Origin-Resource-Policy, HSTS and the request id stay.
 */
const DOCUMENT_ONLY_HEADERS = [
  'origin-agent-cluster',
  'cross-origin-opener-policy',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

/** The CSP of a response that is not a document: it may load nothing and be framed nowhere. */
export const STREAM_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Detaches the response from Fastify's reply cycle for streaming, keeping the headers hooks set on the
 * reply so far (the request id, rate-limit figures), which Fastify would otherwise only write on send.
 */
export function hijackForStream(reply: FastifyReply): ServerResponse {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  reply.hijack();
  return reply.raw;
}

export type SseCloseReason = 'ended' | 'client-gone' | 'slow-consumer';

export interface SseConnectionOptions {
  /** Bytes the socket may hold unsent before the reader counts as too slow and is cut off. */
  maxBufferedBytes: number;
  /** How long a full socket may stay full before the reader is cut off. */
  drainTimeoutMs: number;
  /** Extra response headers (never cookies or tokens). */
  headers?: Record<string, string>;
}

/** Told once when a connection closes (the registry's bookkeeping, shared by all its connections). */
export type SseConnectionOwner = (connection: SseConnection, reason: SseCloseReason) => void;

/**
 * One browser SSE response. Writes whole events, keeps the unsent bytes bounded (a reader that stops
 * reading is cut off instead of growing the heap), and tells its owner once when it closes and why.
 * The response must already be detached from Fastify's reply cycle (hijackForStream).
 *
 * Once the headers are out, events go straight to the socket as ready-made bytes (an SseFrame, already
 * framed as an HTTP/1.1 chunk when the response is chunked): one write of a shared Buffer per stream,
 * instead of ServerResponse.write's per-call string encoding, chunk header and deferred uncork. The
 * response still ends through ServerResponse.end, which writes the closing chunk.
 *
 * An HTTP/2 response (node:http2's compatibility API) shares its socket with every other stream of the
 * connection: its events go through the response, which frames them as DATA frames of its own stream,
 * and its unsent bytes are that stream's.
 */
export class SseConnection {
  readonly #res: ServerResponse;
  readonly #options: SseConnectionOptions;
  readonly #owner: SseConnectionOwner | undefined;
  readonly #http2: boolean;
  #closeListeners: ((reason: SseCloseReason) => void)[] | undefined;
  #drainTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #reason: SseCloseReason = 'client-gone';

  constructor(res: ServerResponse, options: SseConnectionOptions, owner?: SseConnectionOwner) {
    this.#res = res;
    this.#options = options;
    this.#owner = owner;
    this.#http2 = isHttp2(res);
    // `on`, not `once`, for 'close' too: #finish runs once whatever calls it, and `once` would keep a
    // wrapper for the stream's whole life.
    const finish = () => this.#finish();
    res.on('close', finish);
    res.on('error', finish);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Sends the status line and headers at once, so the browser sees the stream open immediately, with
   * the security headers of a response that is not a document.
   */
  open(statusCode = 200): void {
    if (this.#closed || this.#res.headersSent) return;
    const { headers } = this.#options;
    for (const name of DOCUMENT_ONLY_HEADERS) this.#res.removeHeader(name);
    if (this.#res.hasHeader('content-security-policy'))
      this.#res.setHeader('content-security-policy', STREAM_CONTENT_SECURITY_POLICY);
    const base = this.#http2 ? SSE_HEADERS : HTTP1_SSE_HEADERS;
    this.#res.writeHead(statusCode, headers === undefined ? base : { ...base, ...headers });
    this.#res.flushHeaders();
  }

  /** Writes one encoded event or comment; returns false when the connection is (now) closed. */
  write(chunk: string | SseFrame): boolean {
    if (this.#closed) return false;
    const flushed = this.#send(chunk);
    if (this.#closed) return false;
    const socket = this.#http2 ? null : this.#res.socket;
    const unsent = socket === null ? this.#res.writableLength : socket.writableLength;
    if (unsent > this.#options.maxBufferedBytes) {
      this.#cutOff();
      return false;
    }
    if (!flushed && this.#drainTimer === undefined) {
      this.#drainTimer = setTimeout(() => this.#cutOff(), this.#options.drainTimeoutMs);
      this.#drainTimer.unref();
      (socket ?? this.#res).once('drain', () => {
        clearTimeout(this.#drainTimer);
        this.#drainTimer = undefined;
      });
    }
    return true;
  }

  /** Writes a last chunk (if any) and ends the response. */
  end(lastChunk?: string | SseFrame): void {
    if (this.#closed) return;
    this.#reason = 'ended';
    if (lastChunk !== undefined) this.#send(lastChunk);
    this.#res.end();
    this.#finish();
  }

  onClose(listener: (reason: SseCloseReason) => void): void {
    if (this.#closed) listener(this.#reason);
    // Most streams have one listener: an array of exactly one, where `[]` and a push would reserve 17 places.
    else if (this.#closeListeners === undefined) this.#closeListeners = [listener];
    else this.#closeListeners.push(listener);
  }

  /** Queues the bytes on the socket (or the response, before its headers are out); false when full. */
  #send(chunk: string | SseFrame): boolean {
    const frame = typeof chunk === 'string' ? new SseFrame(chunk) : chunk;
    // A zero-length chunk would end a chunked response; an empty event writes nothing anyway.
    if (frame.text === '') return true;
    const res = this.#res;
    const socket = this.#http2 ? null : res.socket;
    if (!res.headersSent || socket === null) return res.write(frame.bytes);
    if (socket.destroyed) {
      this.#finish();
      return false;
    }
    return socket.write(isChunked(res) ? frame.chunk : frame.bytes);
  }

  #cutOff(): void {
    if (this.#closed) return;
    this.#reason = 'slow-consumer';
    this.#res.destroy();
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#drainTimer);
    this.#owner?.(this, this.#reason);
    const listeners = this.#closeListeners;
    this.#closeListeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener(this.#reason);
  }
}

/** Whether this is node:http2's Http2ServerResponse (which has the stream it writes to) in HTTP/1.1's clothes. */
function isHttp2(res: ServerResponse): boolean {
  return 'stream' in res;
}

/** Whether Node frames this response's body as HTTP/1.1 chunks (it does unless the client spoke HTTP/1.0). */
function isChunked(res: ServerResponse): boolean {
  return (res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
}
