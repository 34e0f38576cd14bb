import type { ServerResponse } from 'node:http';
import { SseConnection, type SseCloseReason, type SseConnectionOptions } from './sse-connection.ts';
import { SseFrame } from './sse-frame.ts';

export interface SseRegistryOptions extends SseConnectionOptions {
  /** Interval of the `:` heartbeat comments that keep proxies from timing the stream out. */
  heartbeatMs: number;
  /** The encoded heartbeat comment. */
  heartbeat: string;
}

/**
 * Every open browser SSE response of this process. One timer sends the heartbeats of all of them (no
 * timer per stream), and shutdown tells each one how to end before the server closes, so that
 * `fastify.close()` never hangs on an open stream. The heartbeat is encoded once, and a stream costs the
 * registry one map entry (its farewell), not a closure.
 */
export class SseRegistry {
  readonly #options: SseRegistryOptions;
  /** Each open connection and what it is told when the server shuts down, before it is ended. */
  readonly #entries = new Map<SseConnection, string>();
  readonly #heartbeat: SseFrame;
  readonly #timer: NodeJS.Timeout;
  readonly #closed = (connection: SseConnection, reason: SseCloseReason): void => {
    this.#entries.delete(connection);
    if (reason === 'slow-consumer') this.#slowConsumerCutOffs += 1;
  };
  #closing = false;
  #slowConsumerCutOffs = 0;

  constructor(options: SseRegistryOptions) {
    this.#options = options;
    this.#heartbeat = new SseFrame(options.heartbeat);
    this.#timer = setInterval(() => this.#beat(), options.heartbeatMs);
    this.#timer.unref();
  }

  get size(): number {
    return this.#entries.size;
  }

  get closing(): boolean {
    return this.#closing;
  }

  /** Streams cut off because the browser stopped reading, since start. */
  get slowConsumerCutOffs(): number {
    return this.#slowConsumerCutOffs;
  }

  /** Wraps a hijacked response; it leaves the registry by itself when it closes. */
  connect(res: ServerResponse, farewell: string): SseConnection {
    const connection = new SseConnection(res, this.#options, this.#closed);
    this.#entries.set(connection, farewell);
    return connection;
  }

  /** Ends every stream with its farewell and stops the heartbeat. New streams are refused afterwards. */
  closeAll(): void {
    this.#closing = true;
    clearInterval(this.#timer);
    for (const [connection, farewell] of [...this.#entries]) connection.end(farewell);
  }

  #beat(): void {
    const heartbeat = this.#heartbeat;
    for (const connection of this.#entries.keys()) connection.write(heartbeat);
  }
}
