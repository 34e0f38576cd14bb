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
import { LISBON_DESTINATION } from '../../test-support/stay-samples.ts';

const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-100000000001';

const searchBody = {
  destination: LISBON_DESTINATION,
  checkIn: '2027-03-10',
  checkOut: '2027-03-12',
  rooms: [{ adults: 2 }],
};
const faresBody = {
  searchSolutionId: '0b7f3c2e-1d2a-4b3c-8d4e-5f6a7b8c9d01',
  propertyId: '0b7f3c2e-1d2a-4b3c-8d4e-5f6a7b8c9d02',
  checkIn: '2027-03-10',
  checkOut: '2027-03-12',
  rooms: [{ adults: 2 }],
};

let travelApi: ScriptedTravelApi;
let bff: TestBff;
let headers: Record<string, string>;

beforeAll(async () => {
  travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  // A deadline far away: only the browser leaving, or the stream's end, can close an upstream call here.
  bff = await startTestBff({ TRAVEL_API_URL: travelApi.url, UPSTREAM_TIMEOUT_MS: '600000' });
  ({ headers } = await bff.signIn(TRAVELER));
});

afterAll(async () => {
  await bff.close();
  await travelApi.close();
});

function post(path: string, body: unknown, extraHeaders: Record<string, string> = headers) {
  return BrowserStream.open(`${bff.url}${path}`, {
    method: 'POST',
    headers: { ...extraHeaders, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A search whose upstream opened its stream and sent one property, once the browser has that property. */
async function searchWithFirstProperty(target: { url: string; headers: Record<string, string> }) {
  const browser = BrowserStream.open(`${target.url}/api/stays/search`, {
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: JSON.stringify(searchBody),
  });
  const call = await travelApi.nextStaysCall();
  openUpstreamStream(call);
  call.res.write(encodeSseEvent({ event: 'property', data: { name: 'A' } }));
  const stream = await browser;
  await stream.next((event) => event.event === 'property');
  return { call, stream };
}

/**
 * The BFF closed its request to the travel API before the travel API ended its answer, within the
 * suite's wait for an event.
 */
async function expectUpstreamLetGo(call: StaysCall): Promise<void> {
  let closed = false;
  void call.closed.then(() => (closed = true));
  await vi.waitFor(() => expect(closed, 'the upstream request to be closed').toBe(true));
  expect(call.res.writableEnded, 'the travel API had not ended its answer').toBe(false);
}

describe('POST /api/stays/search and /api/stays/fares relay', () => {
  it('relays each event as it arrives: the first reaches the browser while the upstream is still searching', async () => {
    const browser = post('/api/stays/search', searchBody);
    const call = await travelApi.nextStaysCall();
    expect(call.path).toBe('/v1/stays/search');
    expect(call.authorization).toBe(`Bearer access-token-${TRAVELER}`);
    openUpstreamStream(call);
    call.res.write(encodeSseEvent({ event: 'property', data: { name: 'Hotel Alfama' } }));
    const stream = await browser;
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');

    const first = await stream.next((event) => event.event === 'property');
    expect(JSON.parse(first.data)).toEqual({ name: 'Hotel Alfama' });
    // The browser has it while the upstream is still open and has sent nothing else.
    expect(call.res.writableEnded).toBe(false);
    expect(stream.events.map((event) => event.event)).toEqual(['property']);
    // Only now does the upstream send the rest.
    call.res.write(encodeSseEvent({ event: 'progress', data: { received: 1, expected: 2 } }));
    call.res.end(encodeSseEvent({ event: 'done', data: { propertyCount: 1 } }));
    await stream.ended;
    expect(stream.events.map((event) => event.event)).toEqual(['property', 'progress', 'done']);
  });

  it('ends the browser stream on the upstream error event and relays its envelope', async () => {
    const browser = post('/api/stays/fares', faresBody);
    const call = await travelApi.nextStaysCall();
    expect(call.path).toBe('/v1/stays/fares');
    openUpstreamStream(call);
    const envelope = errorEnvelope('MAX_NIGHTS_EXCEEDED', { message: 'Stays are limited to 30 nights' });
    call.res.write(encodeSseEvent({ event: 'error', data: envelope }));
    const stream = await browser;
    await stream.ended;
    expect(stream.data('error')).toEqual([envelope]);
    // The upstream connection was let go once the terminal event was relayed.
    await expectUpstreamLetGo(call);
  });

  it('reports an upstream end without done as a distinct truncated ending', async () => {
    const browser = post('/api/stays/fares', faresBody);
    const call = await travelApi.nextStaysCall();
    openUpstreamStream(call);
    call.res.write(encodeSseEvent({ event: 'fare', data: { fareId: 'f1' } }));
    call.res.end();
    const stream = await browser;
    await stream.ended;
    expect(stream.events.map((event) => event.event)).toEqual(['fare', 'truncated']);
    expect(stream.data('truncated')).toEqual([{ reason: 'upstream-ended' }]);
  });

  it('reports a broken upstream connection as truncated', async () => {
    const { call, stream } = await searchWithFirstProperty({ url: bff.url, headers });
    call.res.destroy();
    await stream.ended;
    expect(stream.data('truncated')).toEqual([{ reason: 'upstream-failed' }]);
  });

  it('ends a stream the upstream stopped feeding as truncated, and lets go of the upstream', async () => {
    const impatient = await startTestBff({ TRAVEL_API_URL: travelApi.url, SSE_RELAY_IDLE_TIMEOUT_MS: '300' });
    try {
      const session = await impatient.signIn(TRAVELER);
      const { call, stream } = await searchWithFirstProperty({
        url: impatient.url,
        headers: session.headers,
      });
      await stream.ended;
      expect(stream.events.map((event) => event.event)).toEqual(['property', 'truncated']);
      expect(stream.data('truncated')).toEqual([{ reason: 'upstream-silent' }]);
      await expectUpstreamLetGo(call);
    } finally {
      await impatient.close();
    }
  });

  it('aborts the upstream request the moment the browser goes away', async () => {
    const { call, stream } = await searchWithFirstProperty({ url: bff.url, headers });
    stream.abort();
    await expectUpstreamLetGo(call);
  });

  it('aborts the upstream request when the browser leaves before the stream opened', async () => {
    const tab = new AbortController();
    const response = fetch(`${bff.url}/api/stays/search`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(searchBody),
      signal: tab.signal,
    }).catch((error: unknown) => error);
    const call = await travelApi.nextStaysCall();
    // The tab closes while the upstream is still working on its answer.
    tab.abort();
    expect(await response).toMatchObject({ name: 'AbortError' });
    await expectUpstreamLetGo(call);
    expect(call.res.headersSent, 'the upstream had not answered yet').toBe(false);
  });

  it.each([
    [422, 'UNPROCESSABLE_ENTITY', 'Send either the search ids or a property'],
    [410, 'OFFER_EXPIRED', 'The search has expired'],
    [503, 'SERVICE_UNAVAILABLE', 'Provider unavailable'],
  ])(
    'passes a %i %s before the stream opens to the browser as an envelope',
    async (status, code, message) => {
      const response = fetch(`${bff.url}/api/stays/fares`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(faresBody),
      });
      const call = await travelApi.nextStaysCall();
      sendJson(call.res, status, errorEnvelope(code, { message }));
      const answer = await response;
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await answer.json()) as { error: { code: string; details: unknown[] } };
      expect(body.error.code).toBe(code);
      expect(body.error.details).toEqual([]);
    },
  );

  it('answers an upstream 401 with a 401 envelope after exactly one retry with a refreshed token', async () => {
    const { headers: ownHeaders } = await bff.signIn(TRAVELER);
    // The identity platform's answer to the refresh (this BFF has no identity platform of its own).
    const refresh = vi.spyOn(bff.app.auth, 'forceRefresh').mockResolvedValue('refreshed-token');
    const callsBefore = travelApi.staysCallCount;
    const response = fetch(`${bff.url}/api/stays/search`, {
      method: 'POST',
      headers: { ...ownHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(searchBody),
    });
    const unauthorized = errorEnvelope('UNAUTHORIZED', { message: 'Token expired' });
    const first = await travelApi.nextStaysCall();
    expect(first.authorization).toBe(`Bearer access-token-${TRAVELER}`);
    sendJson(first.res, 401, unauthorized);
    // The retry comes before any answer, with the refreshed token; without it the browser is answered first.
    const retried = await Promise.race([travelApi.nextStaysCall(), response.then(() => undefined)]);
    expect(retried?.authorization, 'a retry with the refreshed token').toBe('Bearer refreshed-token');
    if (retried) sendJson(retried.res, 401, unauthorized);
    const answer = await response;
    expect(answer.status).toBe(401);
    const body = (await answer.json()) as { error: { code: string; recoveryAction: string } };
    expect(body.error.code).toBe('UNAUTHORIZED');
    // The calls are made one after the other before the answer: once answered, the count is final.
    expect(travelApi.staysCallCount - callsBefore).toBe(2);
    expect(refresh).toHaveBeenCalledTimes(1);
    refresh.mockRestore();
  });

  it('rejects an invalid search body with a 422 envelope without calling the travel API', async () => {
    const answer = await fetch(`${bff.url}/api/stays/search`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ...searchBody, checkOut: '2027-03-09' }),
    });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { error: { code: string; details: { field: string }[] } };
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details.map((detail) => detail.field)).toContain('checkOut');
  });

  it('refuses a signed-out browser with a 401 envelope', async () => {
    const answer = await fetch(`${bff.url}/api/stays/fares`, {
      method: 'POST',
      headers: { 'x-requested-with': 'wayfare', 'content-type': 'application/json' },
      body: JSON.stringify(faresBody),
    });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
  });

  it('calls fares with the guest token for a guest session', async () => {
    const guest = await bff.signIn('guest-1', { guest: true });
    const browser = post(
      '/api/stays/fares',
      {
        checkIn: faresBody.checkIn,
        checkOut: faresBody.checkOut,
        rooms: faresBody.rooms,
        property: {
          type: 'property',
          propertyId: 'p-1',
          name: 'Hotel',
          city: 'Lisbon',
          countryCode: 'PT',
          latitude: 38.7,
          longitude: -9.1,
        },
      },
      guest.headers,
    );
    const call = await travelApi.nextStaysCall();
    expect(call.authorization).toBe('Bearer guest-token-guest-1');
    openUpstreamStream(call);
    call.res.end(encodeSseEvent({ event: 'done', data: { fareCount: 0 } }));
    const stream = await browser;
    await stream.ended;
    expect(stream.data('done')).toEqual([{ fareCount: 0 }]);
    expect(travelApi.rejectedSignatures).toBe(0);
  });
});
