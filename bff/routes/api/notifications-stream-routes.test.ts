import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotificationStreamNotification } from '#shared/api/notification-stream-events.ts';
import { BrowserStream } from '../../test-support/browser-stream.ts';
import { total } from '../../test-support/prometheus-text.ts';
import { notificationFixture, ScriptedTravelApi } from '../../test-support/scripted-travel-api.ts';
import { startTestBff, TEST_CONSUMER_SECRET, type TestBff } from '../../test-support/start-test-bff.ts';

const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-100000000002';

let travelApi: ScriptedTravelApi;
let bff: TestBff;

beforeEach(async () => {
  travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  bff = await startTestBff({ TRAVEL_API_URL: travelApi.url });
});

afterEach(async () => {
  await bff.close();
  await travelApi.close();
});

function openTab(headers: Record<string, string>, query = '', extraHeaders: Record<string, string> = {}) {
  return BrowserStream.open(`${bff.url}/api/notifications/stream${query}`, {
    headers: { ...headers, accept: 'text/event-stream', ...extraHeaders },
  });
}

async function whenLive(tab: BrowserStream): Promise<void> {
  await tab.next((event) => event.event === 'status' && event.data.includes('"live"'));
}

function notificationIds(tab: BrowserStream): string[] {
  return tab.data<NotificationStreamNotification>('notification').map((data) => data.notification.id);
}

describe('GET /api/notifications/stream', () => {
  it('shares one upstream stream among five tabs; each tab gets each notification once, with id = notification id', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const tabs = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        openTab(headers, `?tab=tab-000${index}&visible=${index === 0 ? 1 : 0}`),
      ),
    );
    await Promise.all(tabs.map(whenLive));
    travelApi.emit(notificationFixture('n-1'));
    travelApi.emit(notificationFixture('n-2'));
    for (const tab of tabs) {
      await tab.next((event) => event.id === 'n-2');
      expect(notificationIds(tab)).toEqual(['n-1', 'n-2']);
      expect(tab.named('notification').map((event) => event.id)).toEqual(['n-1', 'n-2']);
    }
    expect(travelApi.notificationStreamOpens).toBe(1);
    const alerting = tabs.map((tab) =>
      tab.data<NotificationStreamNotification>('notification').some((d) => d.alert),
    );
    expect(alerting).toEqual([true, false, false, false, false]);
    expect(tabs[0]?.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    tabs.forEach((tab) => tab.abort());
  });

  it('answers with the headers of an event stream that is not a document: nosniff, same-origin only, a CSP that allows nothing', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const tab = await openTab(headers, '?tab=tab-headers');
    const sent = tab.response.headers;
    expect(sent.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(sent.get('x-content-type-options')).toBe('nosniff');
    expect(sent.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(sent.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(sent.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const documentOnly of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-frame-options']) {
      expect(sent.has(documentOnly), documentOnly).toBe(false);
    }
    tab.abort();
  });

  it('catches up after the upstream drops and after it says done: nothing lost, nothing twice', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const tab = await openTab(headers, '?tab=tab-catchup&visible=1');
    await whenLive(tab);
    travelApi.emit(notificationFixture('live-1'));
    await tab.next((event) => event.id === 'live-1');

    travelApi.emit(notificationFixture('gap-1'), { live: false });
    travelApi.dropStreams();
    await tab.next((event) => event.id === 'gap-1');

    travelApi.emit(notificationFixture('gap-2'), { live: false });
    travelApi.sayDone();
    await tab.next((event) => event.id === 'gap-2');
    travelApi.emit(notificationFixture('live-2'));
    await tab.next((event) => event.id === 'live-2');

    expect(notificationIds(tab)).toEqual(['live-1', 'gap-1', 'gap-2', 'live-2']);
    const states = tab.data<{ state: string }>('status').map((data) => data.state);
    expect(states).toEqual(['connecting', 'live', 'reconnecting', 'live', 'reconnecting', 'live']);
    tab.abort();
  });

  it('reads the traveler’s session once to reopen the upstream stream and catch up', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const tab = await openTab(headers, '?tab=tab-session-reads&visible=1');
    await whenLive(tab);
    const reads = vi.spyOn(bff.app.auth, 'accessTokenForSession');
    travelApi.emit(notificationFixture('missed-1'), { live: false });
    travelApi.dropStreams();
    await tab.next((event) => event.id === 'missed-1');
    // One read for the stream and the catch-up's list call together.
    expect(reads).toHaveBeenCalledTimes(1);
    tab.abort();
  });

  it('resumes a reconnecting tab from Last-Event-ID, and asks for a resync when it cannot', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const first = await openTab(headers, '?tab=tab-first&visible=1');
    await whenLive(first);
    ['a', 'b', 'c'].forEach((id) => travelApi.emit(notificationFixture(`resume-${id}`)));
    await first.next((event) => event.id === 'resume-c');

    const resumed = await openTab(headers, '?tab=tab-second', { 'last-event-id': 'resume-a' });
    await resumed.next((event) => event.id === 'resume-c');
    expect(notificationIds(resumed)).toEqual(['resume-b', 'resume-c']);
    expect(resumed.data<NotificationStreamNotification>('notification').every((data) => data.replay)).toBe(
      true,
    );
    expect(resumed.named('resync')).toEqual([]);

    const unknown = await openTab(headers, '?tab=tab-third&lastEventId=forgotten-id');
    const resync = await unknown.next((event) => event.event === 'resync');
    expect(JSON.parse(resync.data)).toEqual({ reason: 'unknown-last-event-id' });
    [first, resumed, unknown].forEach((tab) => tab.abort());
  });

  it('ends every stream of a session that ends with session-ended, and keeps other sessions streaming', async () => {
    const mine = await bff.signIn(TRAVELER);
    const other = await bff.signIn(TRAVELER);
    const tab = await openTab(mine.headers, '?tab=tab-mine');
    const otherTab = await openTab(other.headers, '?tab=tab-other');
    await whenLive(tab);
    await bff.app.sessions.end(mine.sessionId, 'backchannel');
    await tab.ended;
    expect(tab.data('session-ended')).toEqual([{ reason: 'backchannel' }]);
    travelApi.emit(notificationFixture('after-logout'));
    await otherTab.next((event) => event.id === 'after-logout');
    expect(notificationIds(tab)).not.toContain('after-logout');
    otherTab.abort();
  });

  it('tells every browser to reconnect, with a jittered retry, when the server shuts down, and closes without waiting for the browsers', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const tab = await openTab(headers, '?tab=tab-shutdown');
    await whenLive(tab);
    // The browser keeps reading: only the server can end its stream, and the close must not wait on it
    // (how long a shutdown takes is measured by `npm run bench -- shutdown`).
    let closed = false;
    void bff.close().then(() => (closed = true));
    await vi.waitFor(() => expect(closed, 'the BFF to close with a stream open').toBe(true));
    let ended = false;
    void tab.ended.then(() => (ended = true));
    await vi.waitFor(() => expect(ended, 'the server to end the stream').toBe(true));
    expect(tab.events.at(-1)?.event).toBe('reconnect');
    expect(bff.app.sse.size).toBe(0);
    const [farewell] = tab.data<{ retryMs: number }>('reconnect');
    expect(farewell?.retryMs).toBeGreaterThanOrEqual(2000);
    expect(farewell?.retryMs).toBeLessThan(4000);
    expect(tab.named('reconnect')).toHaveLength(1);
  });

  it('answers a signed-out browser with a 401 envelope and a request without the anti-forgery header with 403', async () => {
    const signedOut = await fetch(`${bff.url}/api/notifications/stream`, {
      headers: { 'x-requested-with': 'wayfare' },
    });
    expect(signedOut.status).toBe(401);
    expect(((await signedOut.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');

    const { headers } = await bff.signIn(TRAVELER);
    const forged = await fetch(`${bff.url}/api/notifications/stream`, {
      headers: { cookie: headers.cookie ?? '' },
    });
    expect(forged.status).toBe(403);
  });

  it('reports tab visibility so that only a visible tab shows the toast', async () => {
    const { headers } = await bff.signIn(TRAVELER);
    const tab = await openTab(headers, '?tab=tab-visibility&visible=0');
    await whenLive(tab);
    travelApi.emit(notificationFixture('while-hidden'));
    await tab.next((event) => event.id === 'while-hidden');
    const report = await fetch(`${bff.url}/api/notifications/stream/visibility`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ tab: 'tab-visibility', visible: true }),
    });
    expect(report.status).toBe(204);
    travelApi.emit(notificationFixture('while-visible'));
    await tab.next((event) => event.id === 'while-visible');
    expect(tab.data<NotificationStreamNotification>('notification').map((data) => data.alert)).toEqual([
      false,
      true,
    ]);
    tab.abort();
  });
});

describe('upstream streams reopening a few at a time', () => {
  const STALLED = '5f1c2a7e-0b1d-4c5e-9a01-100000000003';

  /** `wayfare_notification_upstream_streams_reopening`, by state, from the BFF's metrics listener. */
  async function reopening(): Promise<Record<string, number>> {
    const text = await (await fetch(`http://127.0.0.1:${bff.app.metricsPort()}/metrics`)).text();
    const name = 'wayfare_notification_upstream_streams_reopening';
    return {
      opening: total(text, name, { state: 'opening' }),
      waiting: total(text, name, { state: 'waiting' }),
    };
  }

  /**
   * A BFF that opens one upstream stream at a time, each keeping its place `turnMs` at most: the stalled
   * traveler's open is never answered, and the next traveler's tab opens behind it.
   */
  async function stalledThenNext(turnMs: number): Promise<{ stalled: BrowserStream; next: BrowserStream }> {
    await bff.close();
    bff = await startTestBff({
      TRAVEL_API_URL: travelApi.url,
      METRICS_PORT: '0',
      NOTIFICATION_REOPEN_CONCURRENCY: '1',
      NOTIFICATION_REOPEN_TURN_MS: String(turnMs),
    });
    travelApi.unansweredStreamsOf.add(STALLED);
    const stalled = await openTab((await bff.signIn(STALLED)).headers, '?tab=tab-stalled&visible=1');
    await vi.waitFor(() => expect(travelApi.notificationStreamOpens).toBe(1));
    const next = await openTab((await bff.signIn(TRAVELER)).headers, '?tab=tab-next&visible=1');
    return { stalled, next };
  }

  it('shows an operator how many are opening and how many wait, and lets the next in once a place is free', async () => {
    const { stalled, next } = await stalledThenNext(60_000);
    await vi.waitFor(async () => expect(await reopening()).toEqual({ opening: 1, waiting: 1 }));
    expect(travelApi.notificationStreamOpens).toBe(1);

    // The stalled traveler leaves: their reader stops and gives its place up.
    stalled.abort();
    await whenLive(next);
    expect(await reopening()).toEqual({ opening: 0, waiting: 0 });
    next.abort();
  });

  it('opens the next traveler’s stream once an unanswered open has had its turn', async () => {
    const { stalled, next } = await stalledThenNext(300);
    await whenLive(next);
    // Its open still unanswered, the stalled traveler's stream is still connecting.
    expect(stalled.data<{ state: string }>('status').map((data) => data.state)).toEqual(['connecting']);
    stalled.abort();
    next.abort();
  });
});
