import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { hijackForStream } from './sse-connection.ts';
import type { SseConnection } from './sse-connection.ts';
import type { SseRegistry } from './sse-registry.ts';

export interface OpenUpstreamForBrowserInput {
  reply: FastifyReply;
  registry: SseRegistry;
  /** What the browser is told when the server shuts down while the stream is open. */
  farewell: string;
  /** Sends the upstream request; rejects (with an AppError) when it answers anything but a stream. */
  open: (signal: AbortSignal) => Promise<Readable>;
}

export interface UpstreamForBrowser {
  body: Readable;
  connection: SseConnection;
  /** Aborted the moment the browser goes away (before or after the stream opened). */
  signal: AbortSignal;
}

/**
 * Opens an upstream stream for a browser request, then the browser's stream. An error before the upstream
 * stream opens is thrown, so the error handler answers it as an envelope with its status; the upstream
 * request is aborted the moment the browser goes away, whether the stream is open yet or not.
 */
export async function openUpstreamForBrowser({
  reply,
  registry,
  farewell,
  open,
}: OpenUpstreamForBrowserInput): Promise<UpstreamForBrowser> {
  const upstream = new AbortController();
  const browserGone = () => upstream.abort(new Error('the browser closed the stream'));
  // The response's 'close', not the request's: a request emits 'close' as soon as its body is read.
  reply.raw.on('close', browserGone);
  let body: Readable;
  try {
    body = await open(upstream.signal);
  } catch (error) {
    reply.raw.off('close', browserGone);
    throw error;
  }
  const connection = registry.connect(hijackForStream(reply), farewell, reply.request);
  connection.onClose(browserGone);
  connection.open();
  return { body, connection, signal: upstream.signal };
}
