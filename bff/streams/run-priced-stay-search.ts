import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import {
  PRICED_STAY_SEARCH_EVENTS as EVENTS,
  type PricedStaySearchDone,
  type PricedStaySearchPropertyEnd,
  type PricedStaySearchSearchEnd,
  type Truncated,
} from '#shared/api/priced-stay-search.ts';
import { encodeSseEvent, type SseMessage } from '#shared/sse.ts';
import { errorEnvelope, ErrorEnvelopeSchema, type ErrorEnvelope } from '#shared/upstream/error-envelope.ts';
import {
  StayFareSchema,
  StaySearchDoneSchema,
  StaySearchProgressSchema,
  StaySearchPropertySchema,
  type StaySearchProperty,
} from '#shared/upstream/stays.ts';
import { AppError } from '../errors.ts';
import { readSseBody, SseIdleTimeoutError } from './read-sse-body.ts';
import type { TruncatedReason } from './relay-sse-stream.ts';

/** Codes after which no price of the search can be had: the whole search stops. */
const SEARCH_STOPPING_CODES = new Set(['MAX_NIGHTS_EXCEEDED', 'OFFER_EXPIRED']);

export interface RunPricedStaySearchInput {
  /** The open body of the travel API's search stream. */
  searchBody: Readable;
  /** Opens one property's fares stream; rejects with an AppError when it answers anything but a stream. */
  openFares: (property: StaySearchProperty, signal: AbortSignal) => Promise<Readable>;
  /** Writes one encoded event to the browser; false once the browser is gone. */
  write: (chunk: string) => boolean;
  /** Aborted when the browser goes away: every upstream call of the search is aborted with it. */
  signal: AbortSignal;
  /** Fares streams open at once. */
  concurrency: number;
  /** Longest silence of an upstream stream before it counts as cut off. */
  idleTimeoutMs: number;
  log: FastifyBaseLogger;
}

/**
 * Runs one stay search and prices each property it finds, a few at a time, as soon as it arrives, writing
 * every event to the one browser stream (shared/api/priced-stay-search.ts). Resolves with the event that
 * ends the stream (`done`, `truncated` or `error`), or with undefined when the browser left; either way,
 * every upstream call of the search is over (or aborted) by then.
 */
export async function runPricedStaySearch(input: RunPricedStaySearchInput): Promise<string | undefined> {
  const { write, concurrency, idleTimeoutMs, log } = input;
  const everything = new AbortController();
  const browserGone = () => everything.abort(new Error('the browser closed the stream'));
  if (input.signal.aborted) browserGone();
  else input.signal.addEventListener('abort', browserGone, { once: true });

  let stopping: ErrorEnvelope | undefined;
  const stopWith = (envelope: ErrorEnvelope) => {
    stopping ??= envelope;
    everything.abort(new Error(`the search stopped: ${envelope.error.code}`));
  };
  const send = (event: string, data: unknown, rawData?: string) => {
    if (everything.signal.aborted) return false;
    const chunk =
      rawData === undefined ? encodeSseEvent({ event, data }) : encodeSseEvent({ event, rawData });
    if (write(chunk)) return true;
    browserGone();
    return false;
  };

  const counts = { priced: 0, noRooms: 0, failed: 0 };
  const endProperty = (ending: PricedStaySearchPropertyEnd) => {
    if (ending.outcome === 'priced') counts.priced += 1;
    else if (ending.outcome === 'no-rooms') counts.noRooms += 1;
    else counts.failed += 1;
    send(EVENTS.propertyEnd, ending);
  };

  const priceProperty = async (property: StaySearchProperty): Promise<void> => {
    const { searchSolutionId } = property;
    const failed = (error: ErrorEnvelope) => endProperty({ searchSolutionId, outcome: 'failed', error });
    let body: Readable;
    try {
      body = await input.openFares(property, everything.signal);
    } catch (error) {
      if (everything.signal.aborted) return;
      const envelope = envelopeOf(error);
      if (SEARCH_STOPPING_CODES.has(envelope.error.code)) stopWith(envelope);
      else failed(envelope);
      return;
    }
    let fareCount = 0;
    let unreadable = 0;
    let ending: PricedStaySearchPropertyEnd | undefined;
    try {
      await readSseBody(body, {
        signal: everything.signal,
        idleTimeoutMs,
        onEvent: (message) => {
          if (message.event === 'fare') {
            const fare = StayFareSchema.safeParse(jsonOf(message));
            if (!fare.success) {
              unreadable += 1;
              return true;
            }
            fareCount += 1;
            return send(EVENTS.fare, { searchSolutionId, fare: fare.data });
          }
          if (message.event === 'done') {
            ending =
              fareCount > 0
                ? { searchSolutionId, outcome: 'priced', fareCount }
                : unreadable > 0
                  ? { searchSolutionId, outcome: 'failed', error: unreadableFares() }
                  : { searchSolutionId, outcome: 'no-rooms' };
            return false;
          }
          if (message.event === 'error') {
            const envelope = streamErrorOf(message);
            if (SEARCH_STOPPING_CODES.has(envelope.error.code)) stopWith(envelope);
            else ending = { searchSolutionId, outcome: 'failed', error: envelope };
            return false;
          }
          return true;
        },
      });
    } catch (error) {
      if (everything.signal.aborted) return;
      log.warn({ err: error, searchSolutionId, fareCount }, 'stay fares stream broke off');
      ending = { searchSolutionId, outcome: 'failed', error: cutOffFares(error) };
    }
    if (everything.signal.aborted) return;
    endProperty(ending ?? { searchSolutionId, outcome: 'failed', error: cutOffFares(undefined) });
  };

  // Pricing: a queue of properties and at most `concurrency` fares streams open at once.
  const queue: StaySearchProperty[] = [];
  const running = new Set<Promise<void>>();
  const pump = () => {
    while (running.size < concurrency && queue.length > 0 && !everything.signal.aborted) {
      const property = queue.shift() as StaySearchProperty;
      const pricing: Promise<void> = priceProperty(property)
        .catch((error: unknown) => {
          log.error({ err: error, searchSolutionId: property.searchSolutionId }, 'pricing a stay failed');
          endProperty({
            searchSolutionId: property.searchSolutionId,
            outcome: 'failed',
            error: envelopeOf(error),
          });
        })
        .finally(() => {
          running.delete(pricing);
          pump();
        });
      running.add(pricing);
    }
  };

  // The search: each property goes out, then into the pricing queue.
  const seen = new Set<string>();
  let searchEnd: PricedStaySearchSearchEnd | undefined;
  let searchFailed: ErrorEnvelope | undefined;
  try {
    await readSseBody(input.searchBody, {
      signal: everything.signal,
      idleTimeoutMs,
      onEvent: (message) => {
        if (message.event === 'property') {
          const property = StaySearchPropertySchema.safeParse(jsonOf(message));
          if (!property.success) {
            log.warn({ issues: property.error.issues }, 'stay search sent a property it cannot be priced by');
            return true;
          }
          if (seen.has(property.data.searchSolutionId)) return true;
          seen.add(property.data.searchSolutionId);
          if (!send(EVENTS.property, undefined, message.data)) return false;
          queue.push(property.data);
          pump();
          return true;
        }
        // Every event the browser gets has been checked here, so the SPA reads them as they are.
        if (message.event === 'progress') {
          if (!StaySearchProgressSchema.safeParse(jsonOf(message)).success) return true;
          return send(EVENTS.progress, undefined, message.data);
        }
        if (message.event === 'done') {
          const done = StaySearchDoneSchema.safeParse(jsonOf(message));
          searchEnd = done.success
            ? { ...done.data, outcome: 'done' }
            : { outcome: 'truncated', reason: 'upstream-ended' };
          return false;
        }
        if (message.event === 'error') {
          searchFailed = streamErrorOf(message);
          return false;
        }
        return true;
      },
    });
  } catch (error) {
    if (!everything.signal.aborted) {
      const reason: TruncatedReason =
        error instanceof SseIdleTimeoutError ? 'upstream-silent' : 'upstream-failed';
      searchEnd = { outcome: 'truncated', reason };
      log.warn({ err: error, properties: seen.size }, 'stay search stream broke off');
    }
  }
  if (searchFailed) stopWith(searchFailed);
  searchEnd ??= { outcome: 'truncated', reason: 'upstream-ended' };
  send(EVENTS.searchEnd, searchEnd);

  // Every property found is priced before the stream ends; a stop drops the queue and waits for the aborts.
  for (;;) {
    if (everything.signal.aborted) queue.length = 0;
    if (running.size === 0) break;
    await Promise.race(running);
  }
  input.signal.removeEventListener('abort', browserGone);

  if (stopping) return encodeSseEvent({ event: EVENTS.error, data: stopping });
  if (input.signal.aborted || everything.signal.aborted) return undefined;
  if (searchEnd.outcome === 'truncated') {
    const truncated: Truncated = { reason: searchEnd.reason };
    return encodeSseEvent({ event: EVENTS.truncated, data: truncated });
  }
  const done: PricedStaySearchDone = { propertyCount: seen.size, ...counts };
  return encodeSseEvent({ event: EVENTS.done, data: done });
}

function jsonOf(message: SseMessage): unknown {
  try {
    return JSON.parse(message.data);
  } catch {
    return undefined;
  }
}

/** The envelope of a stream's `event: error` (the whole envelope, or its inner object). */
function streamErrorOf(message: SseMessage): ErrorEnvelope {
  const json = jsonOf(message);
  const envelope = ErrorEnvelopeSchema.safeParse(json);
  if (envelope.success) return envelope.data;
  const inner = ErrorEnvelopeSchema.shape.error.safeParse(json);
  if (inner.success) return { error: inner.data };
  return errorEnvelope('BAD_GATEWAY', {
    message: 'The travel service ended a stream with an unreadable error',
  });
}

function envelopeOf(error: unknown): ErrorEnvelope {
  if (error instanceof AppError) return error.envelope;
  return errorEnvelope('BAD_GATEWAY', { message: 'The travel service could not be reached' });
}

function unreadableFares(): ErrorEnvelope {
  return errorEnvelope('BAD_GATEWAY', { message: 'The travel service sent rates that could not be read' });
}

function cutOffFares(error: unknown): ErrorEnvelope {
  return errorEnvelope('BAD_GATEWAY', {
    message:
      error instanceof SseIdleTimeoutError
        ? 'The travel service stopped sending this hotel’s rates'
        : 'The travel service cut this hotel’s rates short',
  });
}
