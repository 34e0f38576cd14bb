import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { loadIdentityConfig } from '../../upstream/identity/identity-config.ts';
import { startIdentityServer, type IdentityServer } from '../../upstream/identity/identity-server.ts';
import { buildTravelApi } from '../../upstream/travel-api/build-travel-api.ts';
import { loadTravelApiConfig } from '../../upstream/travel-api/travel-api-config.ts';
import { APP_ORIGIN, formAction, TestBrowser } from '../test-support/sign-in-stack.ts';
import { BffFleet, TEST_SESSION_ENCRYPTION_KEYS, type FleetInstance } from '../test-support/bff-fleet.ts';
import { RedisServerProcess, waitFor } from '../test-support/redis-server-process.ts';
import { sessionKey } from './session-store.redis.ts';

/** What the SPA sends on token-attaching and state-changing calls. */
const APP_HEADERS = { 'x-requested-with': 'wayfare', origin: APP_ORIGIN, 'sec-fetch-site': 'same-origin' };

let redis: RedisServerProcess;
let identity: IdentityServer;
let travelApi: Awaited<ReturnType<typeof buildTravelApi>>;
let fleet: BffFleet;
let instances: FleetInstance[];
let dataDir: string;

beforeAll(async () => {
  redis = await RedisServerProcess.start();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-fleet-sessions-'));
  const identityHttp = http.createServer();
  await new Promise<void>((resolve) => identityHttp.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(identityHttp.address() as AddressInfo).port}`;

  travelApi = await buildTravelApi({
    config: loadTravelApiConfig({
      TRAVEL_API_DATA_DIR: path.join(dataDir, 'travel-api'),
      IDENTITY_ISSUER: issuer,
      TRAVEL_API_STREAM_PACE_MS: '0',
      TRAVEL_API_LOG_LEVEL: 'silent',
    }),
    logger: false,
  });
  await travelApi.listen({ host: '127.0.0.1', port: 0 });

  fleet = new BffFleet({
    REDIS_URL: redis.url,
    PUBLIC_ORIGIN: APP_ORIGIN,
    OIDC_ISSUER: issuer,
    TRAVEL_API_URL: `http://127.0.0.1:${(travelApi.server.address() as AddressInfo).port}`,
    // A killed Redis fails commands at once (no offline queue); a short timeout only failed requests
    // whose answer came while a loaded machine stalled the instances' process (503 where 200 was due).
    REDIS_COMMAND_TIMEOUT_MS: '10000',
  });
  instances = [await fleet.start(), await fleet.start(), await fleet.start()];

  identity = await startIdentityServer(
    loadIdentityConfig({
      IDENTITY_ISSUER: issuer,
      IDENTITY_DATA_DIR: path.join(dataDir, 'identity'),
      IDENTITY_BFF_ORIGIN: APP_ORIGIN,
      IDENTITY_BFF_BACKCHANNEL_LOGOUT_URI: `${instances[0]!.url}/auth/backchannel-logout`,
      LOG_LEVEL: 'silent',
    }),
    { server: identityHttp, logger: pino({ level: 'silent' }) },
  );
});

afterAll(async () => {
  await fleet.close();
  await identity.close();
  await travelApi.close();
  await redis.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** A browser whose requests to the app reach the given instance, as a load balancer would send them. */
function browserOn(instance: FleetInstance, cookieFrom?: TestBrowser): TestBrowser {
  const browser = new TestBrowser(new Map([[APP_ORIGIN, instance.url]]));
  const name = instance.app.sessions.cookie.name;
  const value = cookieFrom?.cookie(APP_ORIGIN, name);
  if (value !== undefined) browser.setCookie(APP_ORIGIN, name, value);
  return browser;
}

async function signIn(instance: FleetInstance, email = 'alex@wayfare.example', password = 'alex-demo') {
  const browser = browserOn(instance);
  const login = await browser.navigate('/auth/login?returnTo=%2F');
  const html = await login.final.text();
  const submitted = await browser.navigate(new URL(formAction(html), login.url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  await submitted.final.arrayBuffer();
  const sessionId = browser.cookie(APP_ORIGIN, instance.app.sessions.cookie.name);
  if (sessionId === undefined) throw new Error('The sign-in left no session cookie');
  return { browser, sessionId };
}

async function sessionOf(
  browser: TestBrowser,
): Promise<{ authenticated: boolean; traveler?: { email: string } }> {
  const response = await browser.fetch('/api/session');
  expect(response.status).toBe(200);
  return (await response.json()) as { authenticated: boolean; traveler?: { email: string } };
}

/** Every value Redis holds, as text: what an operator (or a thief of a backup) could read. */
async function everythingInRedis(): Promise<string> {
  const client = redis.client();
  try {
    const parts: string[] = [];
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      if (type === 'string') parts.push((await client.get(key)) ?? '');
      if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(key)));
      if (type === 'set') parts.push(JSON.stringify(await client.smembers(key)));
    }
    return parts.join('\n');
  } finally {
    client.disconnect();
  }
}

/**
 * Every name Redis holds, found with SCAN as a reader of Redis would: key names, the members of sets and
 * sorted sets, the fields of hashes, and the values of strings.
 */
async function everyNameInRedis(): Promise<string[]> {
  const client = redis.client();
  try {
    const names: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        names.push(key);
        const type = await client.type(key);
        if (type === 'set') names.push(...(await client.smembers(key)));
        if (type === 'zset') names.push(...(await client.zrange(key, '0', '-1')));
        if (type === 'hash') names.push(...(await client.hkeys(key)));
        if (type === 'string') names.push((await client.get(key)) ?? '');
      }
    } while (cursor !== '0');
    return names;
  } finally {
    client.disconnect();
  }
}

describe('sessions shared by BFF instances through Redis', () => {
  it('names nothing in Redis by a session cookie: no key, member or value holds it', async () => {
    const [a, b, c] = instances as [FleetInstance, FleetInstance, FleetInstance];
    const { browser, sessionId } = await signIn(a);
    // A token refresh (its lock and result), a rate-limited call of the session and a touch, on other instances.
    const session = await a.app.sessions.store.get(sessionId);
    if (session === undefined) throw new Error('No session');
    await a.app.sessions.store.set({
      ...session,
      accessTokenExpiresAt: Date.now() - 1000,
      accessTokenIssuedAt: 0,
    });
    expect((await browserOn(b, browser).fetch('/api/profile', { headers: APP_HEADERS })).status).toBe(200);
    const guest = await browserOn(c, browser).fetch('/api/guest-session', {
      method: 'POST',
      headers: APP_HEADERS,
    });
    expect(guest.status).toBe(409);
    expect(await sessionOf(browserOn(c, browser))).toMatchObject({ authenticated: true });

    const names = await everyNameInRedis();
    expect(names.some((name) => name.includes(':session:'))).toBe(true);
    expect(names.filter((name) => name.includes(sessionId))).toEqual([]);
  });

  it('lets a session signed in on one instance work on the others, with its tokens encrypted at rest', async () => {
    const [a, b, c] = instances as [FleetInstance, FleetInstance, FleetInstance];
    const { browser, sessionId } = await signIn(a);

    expect(await sessionOf(browserOn(b, browser))).toMatchObject({
      authenticated: true,
      traveler: { email: 'alex@wayfare.example' },
    });
    const profile = await browserOn(c, browser).fetch('/api/profile', { headers: APP_HEADERS });
    expect(profile.status).toBe(200);

    const stored = await c.app.sessions.store.get(sessionId);
    expect(stored?.accessToken).toMatch(/^ey/);
    const raw = await everythingInRedis();
    expect(raw).not.toContain(stored?.accessToken);
    expect(raw).not.toContain(stored?.refreshToken);
    expect(raw).not.toContain('alex@wayfare.example');

    const logout = await browserOn(b, browser).fetch('/auth/logout', {
      method: 'POST',
      headers: APP_HEADERS,
    });
    expect(logout.status).toBe(200);
    expect(await sessionOf(browserOn(a, browser))).toEqual({ authenticated: false });
  });

  it('refreshes an expired access token once when requests reach every instance at the same moment', async () => {
    const { browser, sessionId } = await signIn(instances[1]!);
    const store = instances[0]!.app.sessions.store;
    const before = await store.get(sessionId);
    if (before === undefined) throw new Error('No session');
    await store.set({
      ...before,
      accessTokenExpiresAt: Date.now() - 1000,
      accessTokenIssuedAt: Date.now() - 600_000,
    });
    const refreshes = instances.map((instance) => vi.spyOn(instance.app.auth.oidc, 'refresh'));

    const responses = await Promise.all(
      Array.from({ length: 9 }, (_, index) =>
        browserOn(instances[index % 3]!, browser).fetch('/api/profile', { headers: APP_HEADERS }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array<number>(9).fill(200));
    expect(refreshes.reduce((total, spy) => total + spy.mock.calls.length, 0)).toBe(1);
    const after = await store.get(sessionId);
    expect(after?.accessToken).not.toBe(before.accessToken);
    expect(after?.refreshToken).not.toBe(before.refreshToken);
    for (const spy of refreshes) spy.mockRestore();
  });

  it('holds a rate limit across instances', async () => {
    const statuses: number[] = [];
    for (let call = 0; call < 11; call += 1) {
      const response = await fetch(`${instances[call % 3]!.url}/api/guest-session`, {
        method: 'POST',
        headers: APP_HEADERS,
      });
      statuses.push(response.status);
      if (response.status === 429) {
        const envelope = ErrorEnvelopeSchema.parse(await response.json());
        expect(envelope.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', recoveryAction: 'RETRY_LATER' });
      } else {
        await response.arrayBuffer();
      }
    }
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429]);
  });

  it('keeps sessions through a key rotation, re-sealing them with the new key as they are used', async () => {
    const { browser, sessionId } = await signIn(instances[0]!);
    const rotated = await fleet.start({
      SESSION_ENCRYPTION_KEYS: `test-3:${Buffer.alloc(32, 3).toString('base64')},${TEST_SESSION_ENCRYPTION_KEYS}`,
    });
    const client = redis.client();
    try {
      const sealed = (instance: FleetInstance) =>
        client.hget(sessionKey(instance.app.redis!, sessionId), 'data');
      expect(await sealed(instances[0]!)).toMatch(/^v1\.test-2\./);
      expect(await sessionOf(browserOn(rotated, browser))).toMatchObject({ authenticated: true });
      // Moved to the name the new key gives it, and sealed with it.
      expect(await sealed(rotated)).toMatch(/^v1\.test-3\./);
      expect(await client.exists(sessionKey(instances[0]!.app.redis!, sessionId))).toBe(0);
      // Instances not rolled out yet still hold the previous key list and cannot open it: the reason
      // the new key goes everywhere (second position) before it goes first.
      expect(await sessionOf(browserOn(instances[1]!, browser))).toEqual({ authenticated: false });
    } finally {
      client.disconnect();
      await rotated.close();
    }
  });

  it('answers 503 RETRY_LATER while Redis is down and recovers by itself when it is back', async () => {
    const [a, b, c] = instances as [FleetInstance, FleetInstance, FleetInstance];
    const { browser } = await signIn(a);
    await redis.stop();

    for (const response of [
      await browserOn(a, browser).fetch('/api/session'),
      await browserOn(b, browser).fetch('/api/profile', { headers: APP_HEADERS }),
      await fetch(`${c.url}/api/guest-session`, { method: 'POST', headers: APP_HEADERS }),
    ]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).not.toBeNull();
      const envelope = ErrorEnvelopeSchema.parse(await response.json());
      expect(envelope.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', recoveryAction: 'RETRY_LATER' });
    }
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);

    await redis.startAgain();
    for (const instance of instances) {
      // The stale cookie makes the instance look its session up in Redis.
      await waitFor(
        async () => (await browserOn(instance, browser).fetch('/api/session')).status === 200,
        'the instance to reach Redis again',
      );
    }
    // The restarted Redis kept nothing: the traveler signs in again, and the fleet shares it again.
    const again = await signIn(b);
    expect(await sessionOf(browserOn(c, again.browser))).toMatchObject({ authenticated: true });
  });
});
