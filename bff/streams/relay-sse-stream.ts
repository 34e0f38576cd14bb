import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodeSseEvent } from '#shared/sse.ts';
import { readSseBody, SseIdleTimeoutError } from './read-sse-body.ts';
import { openUpstreamForBrowser } from './open-upstream-for-browser.ts';
import type { SseRegistry } from './sse-registry.ts';

/** The events that end a finite upstream stream; the relay ends the browser stream right after them. */
const TERMINAL_EVENTS = new Set(['done', 'error']);

/**
 * Why a relayed stream ended without the upstream's `done` or `error`: `upstream-ended` (the upstream
 * closed the stream cleanly but early), `upstream-failed` (the connection broke), `upstream-silent`
 * (nothing arrived for the idle timeout), `server-shutdown` (this BFF is going away). The BFF re-runs
 * nothing. For the travel API's three reasons the browser shows what it has and offers to search again;
 * for `server-shutdown`, as for a connection that drops, it opens the stream again on whichever instance
 * answers (web/src/lib/event-stream.ts, readResumableEventStream).
 */
export type TruncatedReason = 'upstream-ended' | 'upstream-failed' | 'upstream-silent' | 'server-shutdown';

export function truncatedEvent(reason: TruncatedReason): string {
  return encodeSseEvent({ event: 'truncated', data: { reason } });
}

export interface RelaySseStreamInput {
  request: FastifyRequest;
  reply: FastifyReply;
  registry: SseRegistry;
  /** Longest silence of the upstream before the stream is ended as truncated (`upstream-silent`). */
  idleTimeoutMs: number;
  /** Sends the upstream request; rejects (with an AppError) when it answers anything but a stream. */
  open: (signal: AbortSignal) => Promise<Readable>;
}

/**
 * Relays a finite upstream SSE stream to the browser event by event, as each arrives. Errors before the
 * stream opens are thrown, so the error handler answers them as envelopes with their status. Once it is
 * open the stream always ends explicitly: with the upstream's `done`/`error`, or with `truncated`. The
 * upstream request is aborted the moment the browser goes away. Nothing is ever sent upstream twice.
 */
export async function relaySseStream({
  request,
  reply,
  registry,
  idleTimeoutMs,
  open,
}: RelaySseStreamInput): Promise<void> {
  const { body, connection, signal } = await openUpstreamForBrowser({
    reply,
    registry,
    farewell: truncatedEvent('server-shutdown'),
    open,
  });

  let relayed = 0;
  let ending: string = truncatedEvent('upstream-ended');
  try {
    await readSseBody(body, {
      signal,
      idleTimeoutMs,
      onEvent: (message) => {
        const chunk = encodeSseEvent({ event: message.event, rawData: message.data, id: message.id });
        relayed += 1;
        if (TERMINAL_EVENTS.has(message.event)) {
          ending = chunk;
          return false;
        }
        return connection.write(chunk);
      },
    });
  } catch (error) {
    if (!connection.closed) {
      ending = truncatedEvent(error instanceof SseIdleTimeoutError ? 'upstream-silent' : 'upstream-failed');
      request.log.warn({ err: error, relayed }, 'upstream stream broke off');
    }
  } finally {
    if (!body.destroyed) body.destroy();
  }
  if (connection.closed) {
    request.log.info({ relayed }, 'browser left the stream; upstream request aborted');
    return;
  }
  connection.end(ending);
}
