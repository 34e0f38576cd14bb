import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';
import { APP_ORIGIN, type TestBrowser } from '../../test-support/sign-in-stack.ts';
import type { StoredSession } from '../../sessions/session-store.ts';

const APP_HEADERS = { 'x-requested-with': 'wayfare', origin: APP_ORIGIN, 'sec-fetch-site': 'same-origin' };
const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';

let stack: GatewayStack;
let tokenRequests = 0;

async function sessionOf(browser: TestBrowser): Promise<StoredSession> {
  const session = await stack.app.sessions.store.get(
    browser.cookie(APP_ORIGIN, '__Host-wayfare_session') ?? '',
  );
  if (!session) throw new Error('no session');
  return session;
}

async function update(id: string, change: Partial<StoredSession>): Promise<void> {
  const current = await stack.app.sessions.store.get(id);
  if (!current) throw new Error('no such session');
  await stack.app.sessions.store.set({ ...current, ...change });
}

beforeAll(async () => {
  stack = await startGatewayStack();
  stack.identity.server.on('request', (request: { method?: string; url?: string }) => {
    if (request.method === 'POST' && request.url === '/token') tokenRequests += 1;
  });
});

afterAll(async () => {
  await stack.close();
});

describe('identity tokens at the travel API', () => {
  it('are accepted: the signed-in traveler reads their own profile', async () => {
    const browser = await stack.signIn();
    const response = await browser.fetch('/api/profile', { headers: APP_HEADERS });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain(ALEX);
  });

  it('are refreshed once for 20 parallel requests at expiry, and the new one is accepted', async () => {
    const browser = await stack.signIn('sam@wayfare.example', 'sam-demo');
    const session = await sessionOf(browser);
    await update(session.id, { accessTokenExpiresAt: Date.now() + 1_000 });
    const before = tokenRequests;

    const responses = await Promise.all(
      Array.from({ length: 20 }, () => browser.fetch('/api/profile', { headers: APP_HEADERS })),
    );

    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(tokenRequests - before).toBe(1);
    expect((await sessionOf(browser)).accessToken).not.toBe(session.accessToken);
  });

  it('are refreshed and retried once when the travel API refuses the current one', async () => {
    const browser = await stack.signIn('jordan@wayfare.example', 'jordan-demo');
    const session = await sessionOf(browser);
    const [header, payload] = (session.accessToken ?? '').split('.');
    await update(session.id, {
      accessToken: `${header}.${payload}.${'A'.repeat(342)}`,
      accessTokenIssuedAt: Date.now() - 60_000,
    });
    const before = tokenRequests;

    const response = await browser.fetch('/api/profile', { headers: APP_HEADERS });

    expect(response.status).toBe(200);
    expect(tokenRequests - before).toBe(1);
  });
});
