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
  bff = await startTestBff({ PUSH_MAX_SUBSCRIPTIONS_PER_TRAVELER: '2' });
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
    expect((await subscribe(subscription)).status).toBe(201);
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
      expect((await subscribe(subscription)).status).toBe(201);
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

  it('refuses a signed-out browser and a request without the anti-forgery header', async () => {
    const subscription = pushService.subscribe();
    expect((await subscribe(subscription, { 'x-requested-with': 'wayfare' })).status).toBe(401);
    expect((await subscribe(subscription, { cookie: headers.cookie ?? '' })).status).toBe(403);
  });
});
