import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { encodeSseComment, encodeSseEvent, type SseEventInit } from '#shared/sse.ts';
import type { FaultRegistry } from '../faults.ts';

export interface SseWriterOptions {
  faults: FaultRegistry;
  /** Sent as the SSE `retry:` field when the stream opens. */
  retryMs?: number;
  /** A comment line this often while the stream is quiet; 0 sends none. */
  heartbeatMs?: number;
  /** Pause before every event after the first, so that clients can render progressively. */
  paceMs?: number;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/**
 * One open Server-Sent Events response. Writes whole events in order, waits for the socket to drain,
 * honours the latency and drop-after-N-events faults, and aborts `signal` when the client goes away or
 * the stream ends.
 */
export class SseWriter {
  readonly #raw: ServerResponse;
  readonly #faults: FaultRegistry;
  readonly #paceMs: number;
  readonly #controller = new AbortController();
  #heartbeat: NodeJS.Timeout | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #eventsSent = 0;
  /** Writes queued or under way; a heartbeat is only needed when there are none. */
  #queued = 0;

  private constructor(raw: ServerResponse, options: SseWriterOptions) {
    this.#raw = raw;
    this.#faults = options.faults;
    this.#paceMs = options.paceMs ?? 0;
    raw.on('close', () => this.#finish());
    const heartbeatMs = options.heartbeatMs ?? 0;
    if (heartbeatMs > 0) {
      this.#heartbeat = setInterval(() => {
        if (this.#queued === 0) void this.comment('heartbeat');
      }, heartbeatMs);
      this.#heartbeat.unref();
    }
  }

  /** Takes the response over from Fastify and sends the 200 SSE headers (with any already set). */
  static open(reply: FastifyReply, options: SseWriterOptions): SseWriter {
    reply.headers(SSE_HEADERS);
    // HTTP/2 forbids connection-specific headers; HTTP/1.1 is told the connection stays.
    if (reply.request.raw.httpVersionMajor < 2) reply.header('connection', 'keep-alive');
    reply.hijack();
    const raw = reply.raw;
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) raw.setHeader(name, value);
    }
    raw.writeHead(200);
    raw.flushHeaders();
    const stream = new SseWriter(raw, options);
    const { retryMs } = options;
    if (retryMs !== undefined) void stream.#enqueue(() => stream.#write(encodeSseEvent({ retry: retryMs })));
    if (stream.#faults.current.dropStreamAfterEvents === 0) stream.#drop();
    return stream;
  }

  /** Aborted once the stream is over, whoever ended it. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get open(): boolean {
    return !this.#controller.signal.aborted;
  }

  /** Sends one event; false when the stream is (or got) closed instead. */
  send(event: SseEventInit): Promise<boolean> {
    return this.#enqueue(async () => {
      if (this.#eventsSent > 0 && this.#paceMs > 0)
        await sleep(this.#paceMs, undefined, { signal: this.signal });
      await this.#faults.delay(this.signal);
      if (!this.open) return false;
      await this.#write(encodeSseEvent(event));
      this.#eventsSent += 1;
      const dropAfter = this.#faults.current.dropStreamAfterEvents;
      if (dropAfter !== null && this.#eventsSent >= dropAfter) {
        this.#drop();
        return false;
      }
      return this.open;
    });
  }

  comment(text: string): Promise<boolean> {
    return this.#enqueue(async () => {
      if (!this.open) return false;
      await this.#write(encodeSseComment(text));
      return this.open;
    });
  }

  /** Sends a last event (when given) after those already queued, then ends the response. */
  end(last?: SseEventInit): Promise<void> {
    return this.#enqueue(async () => {
      if (!this.open) return;
      if (last) await this.#write(encodeSseEvent(last));
      this.#raw.end();
      this.#finish();
    }).then(() => undefined);
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T | false> {
    this.#queued += 1;
    const run = this.#queue
      .then(task)
      .catch((error: unknown) => {
        if (this.open) this.#raw.destroy(error instanceof Error ? error : undefined);
        this.#finish();
        return false as const;
      })
      .finally(() => {
        this.#queued -= 1;
      });
    this.#queue = run;
    return run;
  }

  async #write(chunk: string): Promise<void> {
    if (!this.open) return;
    if (!this.#raw.write(chunk)) {
      await once(this.#raw, 'drain', { signal: this.signal });
    }
  }

  /** The drop fault: the connection closes without a final event. */
  #drop(): void {
    this.#raw.end();
    this.#finish();
  }

  #finish(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    if (!this.#controller.signal.aborted) this.#controller.abort();
  }
}
