import type { ServerResponse } from 'node:http';

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
} as const;

export type SseCloseReason = 'ended' | 'client-gone' | 'slow-consumer';

export interface SseConnectionOptions {
  /** Bytes the socket may hold unsent before the reader counts as too slow and is cut off. */
  maxBufferedBytes: number;
  /** How long a full socket may stay full before the reader is cut off. */
  drainTimeoutMs: number;
  /** Extra response headers (never cookies or tokens). */
  headers?: Record<string, string>;
}

/**
 * One browser SSE response. Writes whole events, keeps the unsent bytes bounded (a reader that stops
 * reading is cut off instead of growing the heap), and tells its owner once when it closes and why.
 * The response must already be detached from Fastify's reply cycle (reply.hijack()).
 */
export class SseConnection {
  readonly #res: ServerResponse;
  readonly #options: SseConnectionOptions;
  readonly #closeListeners: ((reason: SseCloseReason) => void)[] = [];
  #drainTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #reason: SseCloseReason = 'client-gone';

  constructor(res: ServerResponse, options: SseConnectionOptions) {
    this.#res = res;
    this.#options = options;
    res.once('close', () => this.#finish());
    res.on('error', () => this.#finish());
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends the status line and headers at once, so the browser sees the stream open immediately. */
  open(statusCode = 200): void {
    if (this.#closed || this.#res.headersSent) return;
    this.#res.writeHead(statusCode, { ...SSE_HEADERS, ...this.#options.headers });
    this.#res.flushHeaders();
  }

  /** Writes one encoded event or comment; returns false when the connection is (now) closed. */
  write(chunk: string): boolean {
    if (this.#closed) return false;
    const flushed = this.#res.write(chunk);
    if (this.#res.writableLength > this.#options.maxBufferedBytes) {
      this.#cutOff();
      return false;
    }
    if (!flushed && this.#drainTimer === undefined) {
      this.#drainTimer = setTimeout(() => this.#cutOff(), this.#options.drainTimeoutMs);
      this.#drainTimer.unref();
      this.#res.once('drain', () => {
        clearTimeout(this.#drainTimer);
        this.#drainTimer = undefined;
      });
    }
    return true;
  }

  /** Writes a last chunk (if any) and ends the response. */
  end(lastChunk?: string): void {
    if (this.#closed) return;
    this.#reason = 'ended';
    if (lastChunk !== undefined) this.#res.write(lastChunk);
    this.#res.end();
    this.#finish();
  }

  onClose(listener: (reason: SseCloseReason) => void): void {
    if (this.#closed) listener(this.#reason);
    else this.#closeListeners.push(listener);
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
    for (const listener of this.#closeListeners.splice(0)) listener(this.#reason);
  }
}
