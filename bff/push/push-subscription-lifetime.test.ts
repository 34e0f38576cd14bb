import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { signedHeaders } from '#shared/upstream/sign-request.ts';
import { TEST_SESSION_ENCRYPTION_KEYS } from '../test-support/bff-fleet.ts';
import { RedisServerProcess } from '../test-support/redis-server-process.ts';
import { notificationFixture } from '../test-support/scripted-travel-api.ts';
import { startSignInStack, type SignInStack, type TestBrowser } from '../test-support/sign-in-stack.ts';
import { TestPushService } from '../test-support/test-push-service.ts';

/**
 * A push subscription lives as long as the session that made it: every way a session ends (the sign-out
 * button, back-channel logout, idle and absolute expiry) removes what that session subscribed, in the
 * embedded and the Redis stores, so a browser signed out is never pushed the traveler's notifications.
 */

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const SAM = { email: 'sam@wayfare.example', password: 'sam-demo' };
const SAM_ID = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';
const WEBHOOK_PATH = '/webhooks/travel-api/push';
const WEBHOOK_SECRET = 'dev-push-webhook-secret-change-me-01';
const APP_HEADERS = { 'x-requested-with': 'wayfare', 'content-type': 'application/json' };

let redis: RedisServerProcess;
let pushService: TestPushService;

beforeAll(async () => {
  [redis, pushService] = await Promise.all([RedisServerProcess.start(), new TestPushService().start()]);
});

afterAll(async () => {
  await pushService.close();
  await redis.stop();
});

const stores = [
  { name: 'embedded', env: (): Record<string, string> => ({}) },
  {
    name: 'Redis',
    env: (): Record<string, string> => {
      const vapid = webPush.generateVAPIDKeys();
      return {
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: `push-lifetime-${Date.now()}:`,
        SESSION_ENCRYPTION_KEYS: TEST_SESSION_ENCRYPTION_KEYS,
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
      };
    },
  },
];

describe.each(stores)('push subscriptions end with their session ($name store)', ({ env }) => {
  let stack: SignInStack;
  let notifications = 0;

  beforeAll(async () => {
    stack = await startSignInStack({
      bffEnv: { ...pushService.bffEnv, SESSION_SWEEP_INTERVAL_SECONDS: '0.2', ...env() },
    });
  });

  afterAll(async () => {
    await stack.close();
  });

  /** Turns push alerts on in this browser; returns the endpoint the push service gave it. */
  async function subscribe(browser: TestBrowser): Promise<string> {
    const subscription = pushService.subscribe();
    const response = await browser.fetch('/api/push/subscriptions', {
      method: 'POST',
      headers: APP_HEADERS,
      body: JSON.stringify(subscription),
    });
    expect(response.status).toBe(200);
    return subscription.endpoint;
  }

  async function endpointsOfSession(browser: TestBrowser): Promise<{ status: number; endpoints?: string[] }> {
    const response = await browser.fetch('/api/push/subscriptions', { headers: APP_HEADERS });
    const body = (await response.json()) as { endpoints?: string[] };
    return { status: response.status, ...(body.endpoints ? { endpoints: body.endpoints } : {}) };
  }

  /** What the travel API's push channel gets for a new notification of the traveler. */
  async function pushFor(travelerId: string): Promise<string> {
    notifications += 1;
    const notification = notificationFixture(`lifetime-${Date.now()}-${notifications}`);
    const body = JSON.stringify({ type: 'notification.push', travelerId, notification });
    const headers = signedHeaders({
      consumer: 'travel-booking-service',
      secret: WEBHOOK_SECRET,
      method: 'POST',
      path: WEBHOOK_PATH,
      body,
    });
    const response = await fetch(`${stack.bffUrl}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { outcome: string }).outcome;
  }

  /** Alex and Sam each signed in on a browser of their own, each with push alerts on. */
  async function twoTravelersSubscribed() {
    const alex = await stack.signIn();
    const sam = await stack.signIn(SAM);
    const alexEndpoint = await subscribe(alex.browser);
    const samEndpoint = await subscribe(sam.browser);
    expect(await endpointsOfSession(alex.browser)).toEqual({ status: 200, endpoints: [alexEndpoint] });
    return { alex: alex.browser, sam: sam.browser, samEndpoint };
  }

  /** Alex is pushed nothing any more; Sam, whose session goes on, still is. */
  async function expectOnlyAlexUnsubscribed(sam: TestBrowser, samEndpoint: string): Promise<void> {
    expect(await stack.app.push.subscriptions.list(ALEX)).toEqual([]);
    expect(await pushFor(ALEX)).toBe('no-subscription');
    expect(await endpointsOfSession(sam)).toEqual({ status: 200, endpoints: [samEndpoint] });
    expect(await pushFor(SAM_ID)).toBe('sent');
  }

  it('the sign-out button removes what the session subscribed, and a new session of the browser sees none', async () => {
    const { alex, sam, samEndpoint } = await twoTravelersSubscribed();
    const logout = await alex.fetch('/auth/logout', {
      method: 'POST',
      headers: { 'x-requested-with': 'wayfare' },
    });
    expect(logout.status).toBe(200);
    await expectOnlyAlexUnsubscribed(sam, samEndpoint);

    // The same browser signed in again (or another traveler on it): push is off until turned on.
    await stack.signIn({ browser: alex });
    expect(await endpointsOfSession(alex)).toEqual({ status: 200, endpoints: [] });
  });

  it('back-channel logout (signed out at the identity platform) removes them', async () => {
    const { alex, sam, samEndpoint } = await twoTravelersSubscribed();
    const endSession = await alex.navigate(new URL('/session/end', stack.identity.issuer).href);
    const page = await endSession.final.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*>[\s\S]*?name="xsrf" value="([^"]+)"/.exec(page);
    await alex.navigate(new URL(form?.[1] ?? '', endSession.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: form?.[2] ?? '', logout: 'yes' }).toString(),
    });
    expect((await endpointsOfSession(alex)).status).toBe(401);
    await expectOnlyAlexUnsubscribed(sam, samEndpoint);
  });

  it('idle expiry, found by the sweep, removes them', async () => {
    const { alex, sam, samEndpoint } = await twoTravelersSubscribed();
    const sessionId = alex.cookie('http://localhost:3000', stack.app.sessions.cookie.name) ?? '';
    const stored = await stack.app.sessions.store.get(sessionId);
    const idleMs = stack.app.config.SESSION_IDLE_TIMEOUT_SECONDS * 1000;
    await stack.app.sessions.store.set({ ...stored!, lastSeenAt: Date.now() - idleMs - 1000 });
    await expect.poll(() => stack.app.push.subscriptions.list(ALEX), { timeout: 10_000 }).toEqual([]);
    await expectOnlyAlexUnsubscribed(sam, samEndpoint);
  });

  it('absolute expiry, found when the browser comes back, removes them', async () => {
    const { alex, sam, samEndpoint } = await twoTravelersSubscribed();
    const sessionId = alex.cookie('http://localhost:3000', stack.app.sessions.cookie.name) ?? '';
    const stored = await stack.app.sessions.store.get(sessionId);
    await stack.app.sessions.store.set({ ...stored!, absoluteExpiresAt: Date.now() - 1 });
    expect((await endpointsOfSession(alex)).status).toBe(401);
    await expectOnlyAlexUnsubscribed(sam, samEndpoint);
  });

  it('never pushes to a subscription whose session ended unheard, and removes it', async () => {
    const { alex, sam, samEndpoint } = await twoTravelersSubscribed();
    const sessionId = alex.cookie('http://localhost:3000', stack.app.sessions.cookie.name) ?? '';
    // Gone from the store without its end being told (a crash between the two, a store restored).
    await stack.app.sessions.store.delete(sessionId);
    expect(await pushFor(ALEX)).toBe('no-subscription');
    await expectOnlyAlexUnsubscribed(sam, samEndpoint);
  });
});
