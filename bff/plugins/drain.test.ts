import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSseEvent } from '#shared/sse.ts';
import { BrowserStream } from '../test-support/browser-stream.ts';
import { openUpstreamStream, ScriptedTravelApi } from '../test-support/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET, type TestBff } from '../test-support/start-test-bff.ts';
import { LISBON_DESTINATION } from '../test-support/stay-samples.ts';

const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-300000000001';

let travelApi: ScriptedTravelApi;
let bff: TestBff;
let headers: Record<string, string>;

beforeAll(async () => {
  travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  bff = await startTestBff({ TRAVEL_API_URL: travelApi.url, UPSTREAM_TIMEOUT_MS: '600000' });
  ({ headers } = await bff.signIn(TRAVELER));
});

afterAll(async () => {
  await bff.close();
  await travelApi.close();
});

function isLive(event: { event: string; data: string }): boolean {
  return event.event === 'status' && (JSON.parse(event.data) as { state: string }).state === 'live';
}

describe('draining on SIGTERM (app.drain)', () => {
  it('leaves rotation at once, hands the notification stream over, refuses new reads and finishes the search in flight', async () => {
    const notifications = await BrowserStream.open(`${bff.url}/api/notifications/stream?visible=1`, {
      headers,
    });
    await notifications.next(isLive);
    // A stay search in flight: its upstream has sent one property and goes on searching.
    const searching = BrowserStream.open(`${bff.url}/api/stays/search`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        destination: LISBON_DESTINATION,
        checkIn: '2027-03-10',
        checkOut: '2027-03-12',
        rooms: [{ adults: 2 }],
      }),
    });
    const call = await travelApi.nextStaysCall();
    openUpstreamStream(call);
    call.res.write(encodeSseEvent({ event: 'property', data: { name: 'Hotel Alfama' } }));
    const search = await searching;
    await search.next((event) => event.event === 'property');

    let drained = false;
    const draining = bff.app.drain.start(60_000).finally(() => (drained = true));

    // The notification stream is told to reconnect now (another instance answers), then ends.
    await notifications.ended;
    const last = notifications.events.at(-1);
    expect(last?.event).toBe('reconnect');
    expect((JSON.parse(last?.data ?? '{}') as { retryMs: number }).retryMs).toBeLessThan(500);

    // Out of rotation: readiness says so; a new read is refused for the front to send it elsewhere.
    const ready = await bff.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE', details: [{ field: 'instance', code: 'draining' }] },
    });
    const read = await bff.app.inject({ method: 'GET', url: '/api/session', headers });
    expect(read.statusCode).toBe(503);
    expect(read.headers.connection).toBe('close');
    expect(read.headers['retry-after']).toBe('1');
    expect(read.json()).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
    expect((await bff.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // No new connection is accepted.
    await expect(fetch(`${bff.url}/healthz`)).rejects.toThrow();

    // The search in flight is not cut: it ends as the travel API ends it, and only then is the drain done.
    expect(drained).toBe(false);
    call.res.write(encodeSseEvent({ event: 'property', data: { name: 'Hotel Baixa' } }));
    call.res.end(encodeSseEvent({ event: 'done', data: {} }));
    await search.ended;
    expect(search.events.map((event) => event.event)).toEqual(['property', 'property', 'done']);
    expect(await draining).toEqual({ streamsHandedOver: 1, unfinished: 0 });
  });
});
