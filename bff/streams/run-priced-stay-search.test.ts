import { PassThrough, type Readable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { encodeSseEvent } from '#shared/sse.ts';
import type { StaySearchProperty } from '#shared/upstream/stays.ts';
import { sampleStayProperty, sampleUuid } from '../test-support/stay-samples.ts';
import { runPricedStaySearch } from './run-priced-stay-search.ts';

const SEARCH_ID = sampleUuid(99);

/** A priced search over scripted upstream bodies, recording each fares call the moment it is made. */
function pricedSearch(concurrency: number) {
  const search = new PassThrough();
  const faresCalls: { property: StaySearchProperty; body: PassThrough }[] = [];
  const writeWaiters: { test: (chunk: string) => boolean; resolve: () => void }[] = [];
  const browser = new AbortController();
  const written: string[] = [];
  const ending = runPricedStaySearch({
    searchBody: search,
    openFares: (property): Promise<Readable> => {
      const body = new PassThrough();
      faresCalls.push({ property, body });
      return Promise.resolve(body);
    },
    write: (chunk) => {
      written.push(chunk);
      for (const waiter of writeWaiters.filter(({ test }) => test(chunk))) waiter.resolve();
      return true;
    },
    signal: browser.signal,
    concurrency,
    idleTimeoutMs: 60_000,
    log: pino({ level: 'silent' }),
  });
  /** Resolves once the runner wrote a chunk to the browser that passes `test`, after it acted on it. */
  const writtenChunk = (test: (chunk: string) => boolean) =>
    new Promise<void>((resolve) => writeWaiters.push({ test, resolve }));
  return { search, faresCalls, writtenChunk, written, browser, ending };
}

const propertyEvent = (n: number) =>
  encodeSseEvent({ event: 'property', data: sampleStayProperty(n, SEARCH_ID) });
const isProperty = (n: number) => (chunk: string) =>
  chunk.startsWith('event: property') && chunk.includes(sampleUuid(100 + n));

describe('runPricedStaySearch', () => {
  it('opens a property’s fares call as it is found, and never more than `concurrency` at once', async () => {
    const run = pricedSearch(2);
    for (const n of [1, 2, 3]) {
      const relayed = run.writtenChunk(isProperty(n));
      run.search.write(propertyEvent(n));
      // The browser got the property, and the runner has queued or opened its pricing by then.
      await relayed;
      expect(run.faresCalls.map(({ property }) => property.propertyId)).toEqual(
        [1, 2, 3].slice(0, Math.min(n, 2)).map((m) => sampleUuid(100 + m)),
      );
    }

    // The first property is priced: its place goes to the third, the one waiting.
    const firstEnded = run.writtenChunk((chunk) => chunk.startsWith('event: property-end'));
    run.faresCalls[0]!.body.end(encodeSseEvent({ event: 'done', data: { fareCount: 0 } }));
    await firstEnded;
    await expect.poll(() => run.faresCalls.length).toBe(3);
    expect(run.faresCalls[2]!.property.propertyId).toBe(sampleUuid(103));

    run.browser.abort();
    await expect(run.ending).resolves.toBeUndefined();
  });

  it('relays only the progress events that match the contract: the browser reads them unchecked', async () => {
    const run = pricedSearch(1);
    run.search.write(encodeSseEvent({ event: 'progress', data: { searchId: SEARCH_ID, received: 'one' } }));
    run.search.write('event: progress\ndata: {not json\n\n');
    const relayed = run.writtenChunk((chunk) => chunk.startsWith('event: progress'));
    run.search.write(
      encodeSseEvent({ event: 'progress', data: { searchId: SEARCH_ID, received: 1, expected: 4 } }),
    );
    await relayed;
    expect(run.written.filter((chunk) => chunk.startsWith('event: progress'))).toEqual([
      `event: progress\ndata: ${JSON.stringify({ searchId: SEARCH_ID, received: 1, expected: 4 })}\n\n`,
    ]);

    run.browser.abort();
    await expect(run.ending).resolves.toBeUndefined();
  });
});
