import type { ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { bffMetrics } from '../observability/bff-metrics.ts';
import { SseConnection, type SseCloseReason, type SseConnectionOptions } from './sse-connection.ts';
import { SseFrame } from './sse-frame.ts';

export interface SseRegistryOptions extends SseConnectionOptions {
  /** Interval of the `:` heartbeat comments that keep proxies from timing the stream out. */
  heartbeatMs: number;
  /** The encoded heartbeat comment. */
  heartbeat: string;
}

/**
 * Heartbeats go out in this many slices of the interval: a tick every heartbeatMs / HEARTBEAT_SLICES
 * writes to one slice of the streams, so 10,000 streams cost ten small bursts of writes spread over the
 * interval instead of one burst that holds the event loop (and every notification behind it).
 */
const HEARTBEAT_SLICES = 10;

/**
 * Every open browser SSE response of this process. One timer sends the heartbeats of all of them (no
 * timer per stream), a slice of the streams at a time, and shutdown tells each one how to end before
 * the server closes, so that `fastify.close()` never hangs on an open stream. The heartbeat is encoded
 * once, and a stream costs the registry one map entry (its farewell) and one set entry (its heartbeat
 * slice), not a closure.
 */
export class SseRegistry {
  readonly #options: SseRegistryOptions;
  /** Each open connection and what it is told when the server shuts down, before it is ended. */
  readonly #entries = new Map<SseConnection, string>();
  /** The streams a browser resumes on another instance, and what each is told when this one drains. */
  readonly #handovers = new Map<SseConnection, string>();
  /** The connections by heartbeat slice; a connection joins the slice after the previous one's. */
  readonly #slices: Set<SseConnection>[] = Array.from({ length: HEARTBEAT_SLICES }, () => new Set());
  readonly #heartbeat: SseFrame;
  readonly #timer: NodeJS.Timeout;
  readonly #closed = (connection: SseConnection, reason: SseCloseReason): void => {
    this.#entries.delete(connection);
    this.#handovers.delete(connection);
    for (const slice of this.#slices) if (slice.delete(connection)) break;
    if (reason === 'slow-consumer') this.#slowConsumerCutOffs += 1;
  };
  #closing = false;
  #slowConsumerCutOffs = 0;
  #tick = 0;
  #joined = 0;

  constructor(options: SseRegistryOptions) {
    this.#options = options;
    this.#heartbeat = new SseFrame(options.heartbeat);
    this.#timer = setInterval(() => this.#beat(), Math.max(1, options.heartbeatMs / HEARTBEAT_SLICES));
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

  /**
   * Wraps a hijacked response; it leaves the registry by itself when it closes. The request it answers
   * names the stream's kind (its route template: the label of the count of open streams) and logs the
   * stream's open and its end, with the reason and how long it lasted. A stream with a `handover` is
   * ended with it when the instance drains (`handOver`); the others run on to their own end.
   */
  connect(res: ServerResponse, farewell: string, request?: FastifyRequest, handover?: string): SseConnection {
    // What the stream's end needs, not the request: Fastify's request is not kept for the stream's life.
    const kind = request?.routeOptions.url ?? 'other';
    const log = request?.log;
    const trace = request?.trace === undefined ? {} : { trace_id: request.trace.traceId };
    const openedAt = performance.now();
    const open = bffMetrics().browserStreamsOpen;
    open.add(1, { kind });
    log?.info({ stream: kind, ...trace }, 'stream open');
    const connection = new SseConnection(res, this.#options, (closed, reason) => {
      open.add(-1, { kind });
      const durationMs = Math.round(performance.now() - openedAt);
      log?.info({ stream: kind, reason, durationMs, ...trace }, 'stream ended');
      this.#closed(closed, reason);
    });
    this.#entries.set(connection, farewell);
    if (handover !== undefined) this.#handovers.set(connection, handover);
    this.#slices[this.#joined % HEARTBEAT_SLICES]?.add(connection);
    this.#joined += 1;
    return connection;
  }

  /** Ends every stream with its farewell and stops the heartbeat. New streams are refused afterwards. */
  closeAll(): void {
    this.#closing = true;
    clearInterval(this.#timer);
    for (const [connection, farewell] of [...this.#entries]) connection.end(farewell);
  }

  /**
   * The instance drains: each stream registered with a handover is ended with it (the browser reconnects,
   * through the front, to another instance); new streams are refused. Returns how many were ended.
   */
  handOver(): number {
    this.#closing = true;
    const handovers = [...this.#handovers];
    for (const [connection, handover] of handovers) connection.end(handover);
    return handovers.length;
  }

  #beat(): void {
    const heartbeat = this.#heartbeat;
    const slice = this.#slices[this.#tick % HEARTBEAT_SLICES] as Set<SseConnection>;
    this.#tick += 1;
    for (const connection of slice) connection.write(heartbeat);
  }
}
