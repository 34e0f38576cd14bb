import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationStreamNotification } from '#shared/api/notification-stream-events.ts';
import type { Notification } from '#shared/upstream/notifications.ts';
import { signedHeaders } from '#shared/upstream/sign-request.ts';
import { pushTopic } from '../../push/push-topic.ts';
import { TestPushService } from '../../test-support/test-push-service.ts';
import { BrowserStream } from '../../test-support/browser-stream.ts';
import { DELAYED_FLIGHT, LONDON } from '#shared/test-support/delayed-flight.ts';
import { notificationFixture, ScriptedTravelApi } from '../../test-support/scripted-travel-api.ts';
import {
  startTestBff,
  TEST_CONSUMER_SECRET,
  TEST_PUSH_SECRET,
  type TestBff,
} from '../../test-support/start-test-bff.ts';

const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-100000000003';
const PATH = '/webhooks/travel-api/push';

let travelApi: ScriptedTravelApi;
let pushService: TestPushService;
let bff: TestBff;
let headers: Record<string, string>;
let sessionId: string;

beforeEach(async () => {
  travelApi = await new ScriptedTravelApi(TEST_CONSUMER_SECRET).start();
  pushService = await new TestPushService().start();
  bff = await startTestBff({ TRAVEL_API_URL: travelApi.url, ...pushService.bffEnv });
  ({ headers, sessionId } = await bff.signIn(TRAVELER));
  const subscribed = await fetch(`${bff.url}/api/push/subscriptions`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(pushService.subscribe()),
  });
  expect(subscribed.status).toBe(200);
});

afterEach(async () => {
  await bff.close();
  await pushService.close();
  await travelApi.close();
});

/** The travel API's push channel: one signed POST, as the service sends it. */
async function pushWebhook(
  notification: Notification,
  { secret = TEST_PUSH_SECRET, consumer = 'travel-booking-service', tamper = false } = {},
): Promise<Response> {
  const body = JSON.stringify({ type: 'notification.push', travelerId: TRAVELER, notification });
  const signed = signedHeaders({ consumer, secret, method: 'POST', path: PATH, body });
  return fetch(`${bff.url}${PATH}`, {
    method: 'POST',
    headers: { ...signed, 'content-type': 'application/json' },
    body: tamper ? body.replace('Flight delayed', 'Flight cancelled') : body,
  });
}

/** Retries like the travel API does on a 5xx; returns the final outcome. */
async function deliverWithRetries(notification: Notification): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const response = await pushWebhook(notification);
    if (response.status === 200) return ((await response.json()) as { outcome: string }).outcome;
    expect(response.status).toBe(503);
  }
  throw new Error('the webhook kept failing');
}

async function openTab(query: string): Promise<BrowserStream> {
  const tab = await BrowserStream.open(`${bff.url}/api/notifications/stream${query}`, { headers });
  await tab.next((event) => event.event === 'status' && event.data.includes('"live"'));
  return tab;
}

async function setVisible(tab: string, visible: boolean): Promise<void> {
  const response = await fetch(`${bff.url}/api/notifications/stream/visibility`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ tab, visible }),
  });
  expect(response.status).toBe(204);
}

async function pushStats(): Promise<Record<string, number>> {
  const response = await fetch(`${bff.url}/api/push/stats`, { headers });
  return ((await response.json()) as { push: Record<string, number> }).push;
}

describe('POST /webhooks/travel-api/push: push deduplicated against SSE', () => {
  it('sends a Web Push when the notification was not delivered live: encrypted payload, tag, deep link, Topic, TTL', async () => {
    const notification = notificationFixture('5f1c2a7e-aaaa-4c5e-9a01-000000000001');
    const response = await pushWebhook(notification);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ outcome: 'sent' });
    expect(pushService.received).toHaveLength(1);
    const [push] = pushService.received;
    expect(push?.payload).toEqual({
      notificationId: notification.id,
      title: notification.title,
      body: notification.body,
      tag: notification.id,
      url: `/trips/${notification.tripId}/segment/${notification.segmentId}`,
      severity: 'warning',
      eventType: 'SEGMENT_DELAYED',
    });
    expect(push?.headers.topic).toBe(pushTopic(notification.id));
    expect(push?.headers.ttl).toBe('3600');
    expect(push?.headers.urgency).toBe('normal');
    expect(push?.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    expect((await pushStats()).sent).toBe(1);
  });

  it('carries the event’s facts and the locale of the subscribing session’s profile, never a token', async () => {
    await bff.app.sessions.rememberLocale(sessionId, 'es-ES');
    const facts = {
      segment: { ...DELAYED_FLIGHT, destination: LONDON },
      previous: { delayMinutes: 0, gate: 'C31' },
    };
    const notification = { ...notificationFixture('5f1c2a7e-aaaa-4c5e-9a01-000000000002'), facts };
    expect(await (await pushWebhook(notification)).json()).toEqual({ outcome: 'sent' });
    const [push] = pushService.received;
    expect(push?.payload).toMatchObject({
      notificationId: notification.id,
      eventType: 'SEGMENT_DELAYED',
      facts,
      locale: 'es-ES',
      title: notification.title,
      body: notification.body,
    });
    const sent = JSON.stringify(push?.payload);
    for (const secret of [sessionId, `access-token-${TRAVELER}`, TEST_CONSUMER_SECRET, TEST_PUSH_SECRET]) {
      expect(sent).not.toContain(secret);
    }
  });

  it('suppresses the Web Push when the notification was delivered live to a visible app', async () => {
    const tab = await openTab('?tab=tab-visible-1&visible=1');
    const notification = notificationFixture('live-visible-1');
    travelApi.emit(notification);
    await tab.next((event) => event.id === notification.id);
    const response = await pushWebhook(notification);
    expect(await response.json()).toEqual({ outcome: 'suppressed-live' });
    expect(pushService.received).toEqual([]);
    expect((await pushStats())['suppressed-live']).toBe(1);
    tab.abort();
  });

  it('still sends the Web Push when the only open tab is hidden', async () => {
    const tab = await openTab('?tab=tab-hidden-1&visible=0');
    const notification = notificationFixture('live-hidden-1');
    travelApi.emit(notification);
    await tab.next((event) => event.id === notification.id);
    expect(await (await pushWebhook(notification)).json()).toEqual({ outcome: 'sent' });
    expect(pushService.received).toHaveLength(1);
    tab.abort();
  });

  it('delivers a push that arrives before the live event to the visible tab, once, and suppresses the Web Push', async () => {
    const tab = await openTab('?tab=tab-early-1&visible=1');
    const notification = notificationFixture('push-first-1');
    expect(await (await pushWebhook(notification)).json()).toEqual({ outcome: 'suppressed-live' });
    travelApi.emit(notification);
    travelApi.emit(notificationFixture('marker-1'));
    await tab.next((event) => event.id === 'marker-1');
    expect(tab.named('notification').map((event) => event.id)).toEqual(['push-first-1', 'marker-1']);
    expect(pushService.received).toEqual([]);
    tab.abort();
  });

  it('refuses an unsigned, mis-signed, tampered or foreign call with the consumer-auth envelope', async () => {
    const notification = notificationFixture('forged-1');
    const attempts = [
      await pushWebhook(notification, { secret: 'not-the-push-webhook-secret-000' }),
      await pushWebhook(notification, { consumer: 'wayfare-web' }),
      await pushWebhook(notification, { tamper: true }),
      await fetch(`${bff.url}${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'notification.push', travelerId: TRAVELER, notification }),
      }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: {
          code: 'CONSUMER_AUTH_REQUIRED',
          message: 'Consumer authentication required',
          details: [],
          recoveryAction: 'CONTACT_SUPPORT',
          retryAfterSeconds: null,
        },
      });
    }
    expect(pushService.received).toEqual([]);
  });

  it('answers a signed body that is not a push event with a 422 envelope', async () => {
    const body = JSON.stringify({
      type: 'notification.push',
      travelerId: TRAVELER,
      notification: { id: 'x' },
    });
    const signed = signedHeaders({
      consumer: 'travel-booking-service',
      secret: TEST_PUSH_SECRET,
      method: 'POST',
      path: PATH,
      body,
    });
    const response = await fetch(`${bff.url}${PATH}`, {
      method: 'POST',
      headers: { ...signed, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
  });

  it('a repeat that comes while the first attempt is still deciding is told to retry, and is then a duplicate: one push', async () => {
    const held = pushService.holdNext();
    const first = pushWebhook(notificationFixture('n-slow'));
    await held.arrived;
    const repeat = await pushWebhook(notificationFixture('n-slow'));
    expect(repeat.status).toBe(503);
    expect(await repeat.json()).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE', recoveryAction: 'RETRY_LATER', retryAfterSeconds: 5 },
    });
    held.release();
    expect(await (await first).json()).toEqual({ outcome: 'sent' });
    expect(await (await pushWebhook(notificationFixture('n-slow'))).json()).toEqual({ outcome: 'duplicate' });
    expect(pushService.received).toHaveLength(1);
    expect(await pushStats()).toMatchObject({ sent: 1, deciding: 1, duplicate: 1 });
  });

  it('removes a subscription the push service reports gone', async () => {
    pushService.nextStatuses.push(410);
    expect(await (await pushWebhook(notificationFixture('gone-1'))).json()).toEqual({
      outcome: 'no-subscription',
    });
    expect(await (await pushWebhook(notificationFixture('gone-2'))).json()).toEqual({
      outcome: 'no-subscription',
    });
    expect(pushService.received).toEqual([]);
    expect((await pushStats()).subscriptionsRemoved).toBe(1);
  });

  it('a subscription whose keys cannot encrypt never fails the webhook: it is removed, the others still get the push', async () => {
    // Saved before keys were checked: 87 characters of "A" decode to no point on P-256.
    const good = (await bff.app.push.subscriptions.list(TRAVELER))[0]!;
    await bff.app.push.subscriptions.save(TRAVELER, {
      endpoint: `${good.endpoint}-unusable`,
      keys: { p256dh: 'A'.repeat(87), auth: good.keys.auth },
      sessionRef: good.sessionRef!,
    });
    const notification = notificationFixture('n-unusable');
    const response = await pushWebhook(notification);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: 'sent' });
    expect(
      pushService.received.map((push) => (push.payload as { notificationId: string }).notificationId),
    ).toEqual(['n-unusable']);
    const endpoints = (await bff.app.push.subscriptions.list(TRAVELER)).map((item) => item.endpoint);
    expect(endpoints).toEqual([good.endpoint]);
  });

  it('with only an unusable subscription, the webhook answers no-subscription, not a 5xx', async () => {
    const good = (await bff.app.push.subscriptions.list(TRAVELER))[0]!;
    await bff.app.push.subscriptions.removeEndpoint(good.endpoint);
    await bff.app.push.subscriptions.save(TRAVELER, {
      endpoint: `${good.endpoint}-unusable`,
      keys: { p256dh: 'A'.repeat(87), auth: good.keys.auth },
      sessionRef: good.sessionRef!,
    });
    const response = await pushWebhook(notificationFixture('n-only-unusable'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: 'no-subscription' });
    expect(await bff.app.push.subscriptions.list(TRAVELER)).toEqual([]);
  });

  it('alerts exactly once per notification over 200 notifications with faults mixed in', async () => {
    const tabId = 'tab-fuzz-0001';
    const tab = await openTab(`?tab=${tabId}&visible=1`);
    let visible = true;
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const ids: string[] = [];
    for (let index = 0; index < 200; index += 1) {
      if (index % 25 === 24) {
        visible = !visible;
        await setVisible(tabId, visible);
      }
      const notification = notificationFixture(`fuzz-${String(index).padStart(3, '0')}`);
      ids.push(notification.id);
      const roll = random();
      // Faults: the live event lost to the multi-worker gap, the upstream stream cut, the push
      // service failing once (the webhook answers 503 and is retried), the push channel repeating.
      travelApi.emit(notification, { live: roll >= 0.2 });
      if (roll > 0.9) travelApi.dropStreams();
      if (random() < 0.15) pushService.nextStatuses.push(500);
      const outcome = await deliverWithRetries(notification);
      expect(['sent', 'suppressed-live']).toContain(outcome);
      pushService.nextStatuses.length = 0;
      if (random() < 0.15) expect(await deliverWithRetries(notification)).toBe('duplicate');
    }
    await tab.next((event) => event.id === ids.at(-1));
    for (const id of ids) await tab.next((event) => event.id === id);

    const inbox = tab.data<NotificationStreamNotification>('notification');
    expect(inbox.map((data) => data.notification.id).sort()).toEqual([...ids].sort());
    const alertsInApp = inbox.filter((data) => data.alert).map((data) => data.notification.id);
    const alertsByPush = pushService.received.map(
      (push) => (push.payload as { notificationId: string }).notificationId,
    );
    const alerts = [...alertsInApp, ...alertsByPush].sort();
    expect(alerts).toEqual([...ids].sort());
    const stats = await pushStats();
    for (const outcome of ['sent', 'suppressed-live', 'failed', 'duplicate'])
      expect(stats[outcome]).toBeGreaterThan(0);
    tab.abort();
  });
});
