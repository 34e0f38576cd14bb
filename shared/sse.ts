import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { z } from 'zod';

/**
 * One dispatched server-sent event. `event` is 'message' when the stream named none. `traceparent` is the
 * W3C trace context of what the event reports, when the sender gave one (see SseEventInit).
 */
export type SseMessage = { event: string; data: string; id?: string; traceparent?: string };

/** A W3C `traceparent` value (version 00): trace id, parent span id, flags. */
export const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

export interface SseEventInit {
  event?: string;
  /** Any JSON value; sent as its JSON text. */
  data?: unknown;
  /**
   * Data already in text form, sent as is: each of its lines becomes one `data:` line. For relays that
   * pass an upstream event's data through without parsing it. Give either `data` or `rawData`.
   */
  rawData?: string;
  id?: string;
  /** Reconnection delay in milliseconds. */
  retry?: number;
  /**
   * The W3C trace context of what the event reports, as a `traceparent:` field of the event: a field
   * name the SSE standard tells readers to ignore, so that only a reader that looks for it sees it.
   */
  traceparent?: string;
}

export interface ReadSseStreamOptions {
  /** Aborting stops the read, cancels the body and makes the generator throw the signal's reason. */
  signal?: AbortSignal;
  onRetry?: (retryMs: number) => void;
  onComment?: (comment: string) => void;
  /**
   * Most characters one event (or one unfinished line) may buffer; beyond it the body is cancelled and
   * the generator throws eventsource-parser's ParseError. Defaults to DEFAULT_MAX_EVENT_CHARS.
   */
  maxBufferSize?: number;
}

/** 4 Mi characters: far above any event of this API, low enough that a runaway stream cannot exhaust memory. */
export const DEFAULT_MAX_EVENT_CHARS = 4 * 1024 * 1024;

/** The data of an event was not JSON, or not of the expected shape. */
export class SseDataError extends Error {
  readonly event: string;

  constructor(event: string, cause: unknown) {
    super(`The data of a "${event}" event is not of the expected shape`, { cause });
    this.name = 'SseDataError';
    this.event = event;
  }
}

const LINE_BREAK = /\r\n|\r|\n/;

/** Encodes one event, ending with the blank line that dispatches it. */
export function encodeSseEvent({ event, data, rawData, id, retry, traceparent }: SseEventInit): string {
  if (data !== undefined && rawData !== undefined) {
    throw new TypeError('An SSE event takes either data or rawData, not both');
  }
  let text = '';
  if (event !== undefined) text += `event: ${singleLine('event', event)}\n`;
  if (id !== undefined) text += `id: ${eventId(id)}\n`;
  if (retry !== undefined) text += `retry: ${retryMilliseconds(retry)}\n`;
  if (traceparent !== undefined) {
    if (!TRACEPARENT.test(traceparent)) throw new TypeError('An SSE traceparent must be a W3C traceparent');
    text += `traceparent: ${traceparent}\n`;
  }
  const payload = data === undefined ? rawData : jsonText(data);
  if (payload !== undefined) {
    for (const line of payload.split(LINE_BREAK)) text += `data: ${line}\n`;
  }
  return `${text}\n`;
}

/** Encodes a comment (a heartbeat, for instance): each line of text becomes one `:` line. */
export function encodeSseComment(text: string): string {
  return `${text
    .split(LINE_BREAK)
    .map((line) => `: ${line}\n`)
    .join('')}\n`;
}

/**
 * An event's JSON data, of the type its sender's contract gives it, not checked again: for a reader whose
 * sender (the BFF) checked every event against that contract before sending it, as the SPA reads the
 * BFF's answers (web/src/lib/api-client.ts). Throws SseDataError when the data is not JSON.
 */
export function readSseJson<T>(message: SseMessage): T {
  try {
    return JSON.parse(message.data) as T;
  } catch (error) {
    throw new SseDataError(message.event, error);
  }
}

/** Parses an event's JSON data with a schema; throws SseDataError when either step fails. */
export function parseSseData<T>(message: SseMessage, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(readSseJson<unknown>(message));
  if (!parsed.success) throw new SseDataError(message.event, parsed.error);
  return parsed.data;
}

/**
 * Reads the events of an SSE body (a fetch Response body, in a browser or in Node) as they arrive. The
 * generator ends when the body ends; an event the body cut off before its blank line is not yielded.
 * Leaving the loop early cancels the body.
 */
export async function* readSseStream(
  body: ReadableStream<Uint8Array>,
  { signal, onRetry, onComment, maxBufferSize = DEFAULT_MAX_EVENT_CHARS }: ReadSseStreamOptions = {},
): AsyncGenerator<SseMessage> {
  signal?.throwIfAborted();
  const reader = body
    .pipeThrough(utf8Decoder())
    .pipeThrough(new EventSourceParserStream({ onRetry, onComment, maxBufferSize }))
    .getReader();
  const cancel = () => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  let finished = false;
  try {
    for (;;) {
      const next = await reader.read();
      signal?.throwIfAborted();
      if (next.done) {
        finished = true;
        return;
      }
      const { event, data, id } = next.value;
      yield id === undefined ? { event: event ?? 'message', data } : { event: event ?? 'message', data, id };
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

/** TextDecoder reads views of shared buffers too; the DOM typings only admit ArrayBuffer-backed ones. */
function utf8Decoder(): ReadableWritablePair<string, Uint8Array> {
  return new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>;
}

function singleLine(field: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new TypeError(`An SSE ${field} cannot contain a line break`);
  return value;
}

function eventId(id: string): string {
  if (id.includes('\0')) throw new TypeError('An SSE id cannot contain NUL');
  return singleLine('id', id);
}

function retryMilliseconds(retry: number): number {
  if (!Number.isSafeInteger(retry) || retry < 0) {
    throw new RangeError('An SSE retry is a whole, non-negative number of milliseconds');
  }
  return retry;
}

function jsonText(data: unknown): string {
  const text: unknown = JSON.stringify(data);
  if (typeof text !== 'string') throw new TypeError('SSE data must be a JSON value');
  return text;
}
