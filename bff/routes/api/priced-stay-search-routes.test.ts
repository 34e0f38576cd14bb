import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeSseEvent } from '#shared/sse.ts';
import { errorEnvelope } from '#shared/upstream/error-envelope.ts';
import { BrowserStream } from '../../test-support/browser-stream.ts';
import {
  openUpstreamStream,
  ScriptedTravelApi,
  sendJson,
  type StaysCall,
} from '../../test-support/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET, type TestBff } from '../../test-support/start-test-bff.ts';
import { LISBON_DESTINATION, sampleStayProperty, sampleUuid } from '../../test-support/stay-samples.ts';

const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-100000000002';
const uuid = sampleUuid;
const SEARCH_ID = uuid(99);
const property = (n: number) => sampleStayProperty(n, SEARCH_ID);

const searchBody = {
  destination: LISBON_DESTINATION,
  checkIn: '2027-03-10',
  checkOut: '2027-03-12',
  passengers: { adults: 3 },
};

function fare(n: number, total: number) {
  return {
    fareId: uuid(500 + n),
    propertyId: uuid(100 + n),
    searchSolutionId: uuid(n),
    solutionKey: String(n % 10).repeat(64),
    roomName: 'Double room',
    bedType: 'Double',
    board: 'BREAKFAST',
    cancellation: { refundable: true, freeCancellationUntil: '2027-03-08T18:00:00+00:00' },
    nightlyPrice: total / 2,
    totalPrice: total,
    currency: 'EUR',
    nights: 2,
    roomsLeft: 3,
    corporateRate: false,
  };
}

const searchDone = { searchId: SEARCH_ID, propertyCount: 2, expiresAt: '2027-03-01T10:00:00Z' };

let travelApi: ScriptedTravelApi;
let bff: TestBff;
let headers: Record<string, string>;

beforeAll(async () => {
  travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  bff = await startTestBff({ TRAVEL_API_URL: travelApi.url }, { logs: [] });
  ({ headers } = await bff.signIn(TRAVELER));
});

afterAll(async () => {
  await bff.close();
  await travelApi.close();
});

function send(call: StaysCall, event: string, data: unknown): void {
  call.res.write(encodeSseEvent({ event, data }));
}

/** The fares call the BFF made for property n (calls arrive in whatever order the BFF makes them). */
async function faresCallFor(pending: Map<string, StaysCall>, n: number): Promise<StaysCall> {
  for (;;) {
    const known = pending.get(uuid(100 + n));
    if (known) return known;
    const call = await travelApi.nextStaysCall();
    expect(call.path).toBe('/v1/stays/fares');
    pending.set((call.body as { propertyId: string }).propertyId, call);
  }
}

/** A search from the browser; resolves once the BFF called the upstream search, whose stream is open. */
async function startSearch(
  target: { url: string; headers: Record<string, string> } = { url: bff.url, headers },
  body: Record<string, unknown> = searchBody,
) {
  const browser = BrowserStream.open(`${target.url}/api/stays/priced-search`, {
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const search = await travelApi.nextStaysCall();
  expect(search.path).toBe('/v1/stays/search');
  openUpstreamStream(search);
  const stream = await browser;
  return { search, stream, fares: new Map<string, StaysCall>() };
}

const names = (stream: BrowserStream) => stream.events.map((event) => event.event);

describe('POST /api/stays/priced-search', () => {
  it('sends properties as they are found, each property’s fares and ending as they arrive, then done', async () => {
    const { search, stream, fares } = await startSearch();
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(search.authorization).toBe(`Bearer access-token-${TRAVELER}`);

    send(search, 'property', property(1));
    const first = await stream.next((event) => event.event === 'property');
    expect(JSON.parse(first.data)).toEqual(property(1));

    // The property is priced while the search is still going, with the search's ids, dates and rooms.
    const fares1 = await faresCallFor(fares, 1);
    expect(fares1.authorization).toBe(`Bearer access-token-${TRAVELER}`);
    expect(fares1.body).toEqual({
      searchSolutionId: uuid(1),
      propertyId: uuid(101),
      solutionKey: '1'.repeat(64),
      checkIn: '2027-03-10',
      checkOut: '2027-03-12',
      rooms: [
        { adults: 2, childrenAges: [] },
        { adults: 1, childrenAges: [] },
      ],
      bookingProfile: false,
    });
    openUpstreamStream(fares1);
    send(fares1, 'fare', fare(1, 240));
    const firstFare = await stream.next((event) => event.event === 'fare');
    expect(JSON.parse(firstFare.data)).toEqual({ searchSolutionId: uuid(1), fare: fare(1, 240) });

    send(search, 'property', property(2));
    send(search, 'progress', { searchId: SEARCH_ID, received: 2, expected: 2 });
    const fares2 = await faresCallFor(fares, 2);
    openUpstreamStream(fares2);
    fares2.res.end(encodeSseEvent({ event: 'done', data: { fareCount: 0 } }));
    search.res.end(encodeSseEvent({ event: 'done', data: searchDone }));
    await stream.next((event) => event.event === 'search-end');
    send(fares1, 'fare', fare(1, 200));
    fares1.res.end(encodeSseEvent({ event: 'done', data: { fareCount: 2 } }));
    await stream.ended;

    expect(names(stream)).toEqual([
      'property',
      'fare',
      'property',
      'progress',
      'property-end',
      'search-end',
      'fare',
      'property-end',
      'done',
    ]);
    expect(stream.data('property-end')).toEqual([
      { searchSolutionId: uuid(2), outcome: 'no-rooms' },
      { searchSolutionId: uuid(1), outcome: 'priced', fareCount: 2 },
    ]);
    expect(stream.data('search-end')).toEqual([{ ...searchDone, outcome: 'done' }]);
    expect(stream.data('done')).toEqual([{ propertyCount: 2, priced: 1, noRooms: 1, failed: 0 }]);
    // The first card and the first price reached the browser long before the search ended.
    expect(first.at).toBeLessThan(firstFare.at);
    expect(travelApi.rejectedSignatures).toBe(0);
  });

  it('asks the search and every fares call for the traveler’s currency', async () => {
    const { search, stream, fares } = await startSearch(undefined, { ...searchBody, currency: 'USD' });
    expect(search.body).toMatchObject({ currency: 'USD' });
    send(search, 'property', property(1));
    const fares1 = await faresCallFor(fares, 1);
    expect(fares1.body).toMatchObject({ searchSolutionId: uuid(1), currency: 'USD' });
    openUpstreamStream(fares1);
    const inUsd = {
      ...fare(1, 260),
      currency: 'USD',
      propertyPrice: { nightlyPrice: 120, totalPrice: 240, currency: 'EUR' },
    };
    send(fares1, 'fare', inUsd);
    expect(JSON.parse((await stream.next((event) => event.event === 'fare')).data)).toEqual({
      searchSolutionId: uuid(1),
      fare: inUsd,
    });
    fares1.res.end(encodeSseEvent({ event: 'done', data: { fareCount: 1 } }));
    search.res.end(encodeSseEvent({ event: 'done', data: { ...searchDone, propertyCount: 1 } }));
    await stream.ended;
    expect(names(stream).at(-1)).toBe('done');
  });

  it('ends one property as failed with its envelope while the others are priced', async () => {
    const { search, stream, fares } = await startSearch();
    for (const n of [1, 2, 3]) send(search, 'property', property(n));
    search.res.end(encodeSseEvent({ event: 'done', data: { ...searchDone, propertyCount: 3 } }));

    const failing = await faresCallFor(fares, 1);
    openUpstreamStream(failing);
    const providerError = errorEnvelope('PROVIDER_ERROR', { message: 'The hotel provider failed' });
    failing.res.end(encodeSseEvent({ event: 'error', data: providerError }));
    const refused = await faresCallFor(fares, 2);
    const rateLimited = errorEnvelope('RATE_LIMIT_EXCEEDED', {
      message: 'Too many requests',
      retryAfterSeconds: 7,
    });
    sendJson(refused.res, 429, rateLimited);
    const priced = await faresCallFor(fares, 3);
    openUpstreamStream(priced);
    send(priced, 'fare', fare(3, 180));
    priced.res.end(encodeSseEvent({ event: 'done', data: { fareCount: 1 } }));
    await stream.ended;

    const endings = stream.data<{ searchSolutionId: string }>('property-end');
    const byProperty = new Map(endings.map((ending) => [ending.searchSolutionId, ending]));
    expect(byProperty.get(uuid(1))).toEqual({
      searchSolutionId: uuid(1),
      outcome: 'failed',
      error: providerError,
    });
    expect(byProperty.get(uuid(2))).toMatchObject({
      outcome: 'failed',
      error: { error: { code: 'RATE_LIMIT_EXCEEDED', recoveryAction: 'RETRY_LATER', retryAfterSeconds: 7 } },
    });
    expect(byProperty.get(uuid(3))).toEqual({ searchSolutionId: uuid(3), outcome: 'priced', fareCount: 1 });
    expect(stream.data('done')).toEqual([{ propertyCount: 3, priced: 1, noRooms: 0, failed: 2 }]);
    expect(names(stream).at(-1)).toBe('done');
  });

  it('aborts the search and every fares call the moment the browser goes away', async () => {
    const { search, stream, fares } = await startSearch();
    send(search, 'property', property(1));
    send(search, 'property', property(2));
    const calls = [await faresCallFor(fares, 1), await faresCallFor(fares, 2)];
    openUpstreamStream(calls[0] as StaysCall);
    await stream.next((event) => event.event === 'property', { from: 1 });

    const callsBefore = travelApi.staysCallCount;
    const logsBefore = bff.logs.length;
    stream.abort();
    await Promise.all([search.closed, ...calls.map((call) => call.closed)]);
    // The search is over once the BFF says so (it waits for every aborted call): nothing more was asked.
    await vi.waitFor(() =>
      expect(bff.logs.slice(logsBefore).join('\n')).toContain('browser left the priced stay search'),
    );
    expect(travelApi.staysCallCount).toBe(callsBefore);
  });

  it('holds at most STAY_FARES_CONCURRENCY fares calls open at once', async () => {
    const narrow = await startTestBff({ TRAVEL_API_URL: travelApi.url, STAY_FARES_CONCURRENCY: '2' });
    try {
      const session = await narrow.signIn(TRAVELER);
      const callsBefore = travelApi.staysCallCount;
      const { search, stream, fares } = await startSearch({ url: narrow.url, headers: session.headers });
      for (const n of [1, 2, 3]) send(search, 'property', property(n));
      await stream.next((event) => event.event === 'property', { from: 2 });
      const [first, second] = [await faresCallFor(fares, 1), await faresCallFor(fares, 2)];
      // The pump's rule itself is proven without timing in run-priced-stay-search.test.ts; here, that the
      // setting reaches it: the third call is not there while two are open, and comes when one ends.
      expect(travelApi.staysCallCount - callsBefore, 'the search and two fares calls').toBe(3);

      openUpstreamStream(first);
      first.res.end(encodeSseEvent({ event: 'done', data: { fareCount: 0 } }));
      const third = await faresCallFor(fares, 3);
      expect(third.body).toMatchObject({ propertyId: uuid(103) });
      stream.abort();
      await Promise.all([search.closed, second.closed, third.closed]);
    } finally {
      await narrow.close();
    }
  });

  it('ends the whole search with MAX_NIGHTS_EXCEEDED and aborts every other call', async () => {
    const { search, stream, fares } = await startSearch();
    send(search, 'property', property(1));
    send(search, 'property', property(2));
    const [tooLong, other] = [await faresCallFor(fares, 1), await faresCallFor(fares, 2)];
    openUpstreamStream(tooLong);
    openUpstreamStream(other);
    const maxNights = errorEnvelope('MAX_NIGHTS_EXCEEDED', { message: 'Stays are limited to 30 nights' });
    tooLong.res.end(encodeSseEvent({ event: 'error', data: maxNights }));
    await stream.ended;

    expect(names(stream)).toEqual(['property', 'property', 'error']);
    expect(stream.data('error')).toEqual([maxNights]);
    await Promise.all([search.closed, other.closed]);
  });

  it('ends the whole search with OFFER_EXPIRED when a fares call finds the search gone', async () => {
    const { search, stream, fares } = await startSearch();
    send(search, 'property', property(1));
    search.res.end(encodeSseEvent({ event: 'done', data: { ...searchDone, propertyCount: 1 } }));
    const expired = errorEnvelope('OFFER_EXPIRED', { message: 'The search has expired' });
    sendJson((await faresCallFor(fares, 1)).res, 410, expired);
    await stream.ended;

    expect(names(stream)).toEqual(['property', 'search-end', 'error']);
    expect(stream.data('error')).toEqual([expired]);
  });

  it('prices what the search sent before it was cut short, then ends as truncated', async () => {
    const { search, stream, fares } = await startSearch();
    send(search, 'property', property(1));
    await stream.next((event) => event.event === 'property');
    search.res.end();
    await stream.next((event) => event.event === 'search-end');
    const call = await faresCallFor(fares, 1);
    openUpstreamStream(call);
    send(call, 'fare', fare(1, 150));
    call.res.end(encodeSseEvent({ event: 'done', data: { fareCount: 1 } }));
    await stream.ended;

    expect(names(stream)).toEqual(['property', 'search-end', 'fare', 'property-end', 'truncated']);
    expect(stream.data('search-end')).toEqual([{ outcome: 'truncated', reason: 'upstream-ended' }]);
    expect(stream.data('truncated')).toEqual([{ reason: 'upstream-ended' }]);
  });

  it('passes the search’s own error to the browser and prices nothing more', async () => {
    const { search, stream } = await startSearch();
    const invalid = errorEnvelope('PROVIDER_ERROR', { message: 'The search provider failed' });
    search.res.end(encodeSseEvent({ event: 'error', data: invalid }));
    await stream.ended;
    expect(names(stream)).toEqual(['error']);
    expect(stream.data('error')).toEqual([invalid]);
  });

  it('answers a refused search with its envelope and status before any stream opens', async () => {
    const response = fetch(`${bff.url}/api/stays/priced-search`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(searchBody),
    });
    const call = await travelApi.nextStaysCall();
    sendJson(call.res, 422, errorEnvelope('VALIDATION_ERROR', { message: 'Trip dates are in the past' }));
    const answer = await response;
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
  });

  it('is listed in the OpenAPI document with its events', async () => {
    const document = (await (await fetch(`${bff.url}/api/docs/json`)).json()) as {
      paths: Record<string, { post?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const ok = document.paths['/api/stays/priced-search']?.post?.responses['200'];
    expect(JSON.stringify(ok?.content?.['text/event-stream'])).toContain('property-end');
  });
});
