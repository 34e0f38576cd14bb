import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPushService } from '../../test-support/test-push-service.ts';
import { loadVapidKeys } from '../../push/vapid-keys.ts';
import { startTestBff, type TestBff } from '../../test-support/start-test-bff.ts';

const TRAVELER = '5f1c2a7e-0b1d-4c5e-9a01-100000000004';

let bff: TestBff;
let pushService: TestPushService;
let headers: Record<string, string>;

beforeAll(async () => {
  pushService = await new TestPushService().start();
  bff = await startTestBff({ PUSH_MAX_SUBSCRIPTIONS_PER_TRAVELER: '2', ...pushService.bffEnv });
  ({ headers } = await bff.signIn(TRAVELER));
});

afterAll(async () => {
  await bff.close();
  await pushService.close();
});

function subscribe(body: unknown, extraHeaders: Record<string, string> = headers) {
  return fetch(`${bff.url}/api/push/subscriptions`, {
    method: 'POST',
    headers: { ...extraHeaders, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('push opt-in routes', () => {
  it('gives the VAPID public key to anyone, and the same key after a restart of the data folder', async () => {
    const response = await fetch(`${bff.url}/api/push/public-key`);
    expect(response.status).toBe(200);
    const { publicKey } = (await response.json()) as { publicKey: string };
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{86,88}$/);
    const restarted = loadVapidKeys({ publicKey: undefined, privateKey: undefined, dataDir: bff.dataDir });
    expect(restarted.publicKey).toBe(publicKey);
  });

  it('keeps a traveler subscription, once per endpoint, and lets the traveler remove it', async () => {
    const subscription = pushService.subscribe();
    expect((await subscribe(subscription)).status).toBe(200);
    expect((await subscribe(subscription)).status).toBe(200);
    expect(bff.app.push.subscriptions.count(TRAVELER)).toBe(1);
    const removed = await fetch(`${bff.url}/api/push/subscriptions`, {
      method: 'DELETE',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: subscription.endpoint }),
    });
    expect(removed.status).toBe(204);
    expect(bff.app.push.subscriptions.count(TRAVELER)).toBe(0);
  });

  it('keeps at most the configured number of subscriptions per traveler, dropping the oldest', async () => {
    const [first, second, third] = [
      pushService.subscribe(),
      pushService.subscribe(),
      pushService.subscribe(),
    ];
    for (const subscription of [first, second, third])
      expect((await subscribe(subscription)).status).toBe(200);
    const endpoints = (await bff.app.push.subscriptions.list(TRAVELER)).map(
      (subscription) => subscription.endpoint,
    );
    expect(endpoints).toEqual([second.endpoint, third.endpoint]);
  });

  it('rejects a malformed subscription with a 422 envelope naming the field', async () => {
    const subscription = pushService.subscribe();
    const response = await subscribe({ ...subscription, keys: { ...subscription.keys, p256dh: 'short' } });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; details: { field: string }[] } };
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details.map((detail) => detail.field)).toEqual(['keys.p256dh']);
  });

  it('refuses keys that cannot encrypt a push and an endpoint that is not https', async () => {
    const subscription = pushService.subscribe();
    const notAPoint = await subscribe({
      ...subscription,
      keys: { ...subscription.keys, p256dh: 'A'.repeat(87) },
    });
    expect(notAPoint.status).toBe(422);
    const shortAuth = await subscribe({
      ...subscription,
      keys: { ...subscription.keys, auth: Buffer.alloc(12, 1).toString('base64url') },
    });
    expect(shortAuth.status).toBe(422);
    const plainHttp = await subscribe({ ...subscription, endpoint: 'http://push.example/endpoint' });
    expect(plainHttp.status).toBe(422);
    for (const response of [notAPoint, shortAuth, plainHttp]) {
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('answers a new endpoint and one stored before alike (status, headers that vary, body), so subscribing cannot probe', async () => {
    const answer = async (body: unknown) => {
      const response = await subscribe(body);
      return {
        status: response.status,
        body: await response.text(),
        contentType: response.headers.get('content-type'),
        location: response.headers.get('location'),
      };
    };
    const subscription = pushService.subscribe();
    const fresh = await answer(subscription);
    const again = await answer(subscription);
    expect(fresh).toEqual({
      status: 200,
      body: JSON.stringify({ subscribed: true }),
      contentType: 'application/json; charset=utf-8',
      location: null,
    });
    expect(again).toEqual(fresh);
    // Gone at the push service meanwhile (removed by a 404/410): subscribing again answers the same.
    await bff.app.push.subscriptions.removeEndpoint(subscription.endpoint);
    expect(await answer(subscription)).toEqual(fresh);
  });

  it('refuses endpoints off the push services, on addresses and on private ranges, with one answer, storing nothing', async () => {
    const subscription = pushService.subscribe();
    const before = await bff.app.push.subscriptions.list(TRAVELER);
    const probes = [
      'https://127.0.0.1:9443/probe',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1:6379/',
      'https://[::1]/push',
      'https://[::ffff:10.0.0.1]/push',
      'https://192.168.1.1/push',
      'https://push.example/endpoint',
      'https://fcm.googleapis.com.attacker.example/fcm/send/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://user:secret@fcm.googleapis.com/fcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://notify.windows.com/w/x',
      // The local push service, but on a port the allow-list does not name.
      subscription.endpoint.replace(/:\d+\//, ':1/'),
    ];
    for (const endpoint of probes) {
      const response = await subscribe({ ...subscription, endpoint });
      expect({ endpoint, status: response.status }).toEqual({ endpoint, status: 422 });
      const body = (await response.json()) as {
        error: { code: string; details: { field: string; code: string }[] };
      };
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.details).toEqual([
        expect.objectContaining({ field: 'endpoint', code: 'push_service' }),
      ]);
    }
    expect(await bff.app.push.subscriptions.list(TRAVELER)).toEqual(before);
  });

  it('refuses a push service name allowed by origin that resolves to loopback', async () => {
    // `localhost` is a name, allowed here by origin; it resolves to loopback, which is refused by default.
    const strict = await startTestBff({ PUSH_ENDPOINT_ORIGINS: 'https://localhost:9443' });
    try {
      const { headers: strictHeaders } = await strict.signIn(TRAVELER);
      const subscription = pushService.subscribe();
      const response = await fetch(`${strict.url}/api/push/subscriptions`, {
        method: 'POST',
        headers: { ...strictHeaders, 'content-type': 'application/json' },
        body: JSON.stringify({ ...subscription, endpoint: 'https://localhost:9443/push/probe' }),
      });
      expect(response.status).toBe(422);
      expect(await strict.app.push.subscriptions.list(TRAVELER)).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('refuses a signed-out browser and a request without the anti-forgery header', async () => {
    const subscription = pushService.subscribe();
    expect((await subscribe(subscription, { 'x-requested-with': 'wayfare' })).status).toBe(401);
    expect((await subscribe(subscription, { cookie: headers.cookie ?? '' })).status).toBe(403);
  });
});
