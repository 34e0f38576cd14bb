import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { RefreshError } from './oidc-client.ts';
import type { StoredSession } from './session-store.ts';
import {
  APP_ORIGIN,
  startSignInStack,
  type SignInStack,
  type TestBrowser,
} from '../test-support/sign-in-stack.ts';
import type { SessionEnd } from './session-plugin.ts';

const APP_HEADERS = { 'x-requested-with': 'wayfare', origin: APP_ORIGIN };

let stack: SignInStack;
const ends: SessionEnd[] = [];

function tokenRequests(): number {
  return stack.logs.filter((line) => line.includes('"method":"POST","path":"/token"')).length;
}

async function signedInSession(email = 'alex@wayfare.example', password = 'alex-demo') {
  const { browser } = await stack.signIn({ email, password, browser: stack.browser() });
  const id = browser.cookie(APP_ORIGIN, '__Host-wayfare_session') ?? '';
  const session = await stack.app.sessions.store.get(id);
  if (!session) throw new Error('sign-in opened no session');
  return { browser, session };
}

async function update(id: string, change: Partial<StoredSession>): Promise<void> {
  const current = await stack.app.sessions.store.get(id);
  if (!current) throw new Error('no such session');
  await stack.app.sessions.store.set({ ...current, ...change });
}

async function sessionStatus(browser: TestBrowser): Promise<unknown> {
  return (await browser.fetch('/api/session')).json();
}

function jti(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    jti: string;
  };
  return payload.jti;
}

beforeAll(async () => {
  stack = await startSignInStack({
    // Single sign-on at the identity platform is per browser; every test signs in with a fresh one.
    bffEnv: { SESSION_SWEEP_INTERVAL_SECONDS: '0.05', OIDC_REFRESH_LEEWAY_SECONDS: '60' },
  });
  stack.app.sessions.onEnd((end) => ends.push(end));
});

afterAll(async () => {
  await stack.close();
});

describe('access tokens', () => {
  it('hands out the stored token while it is fresh, without calling the identity platform', async () => {
    const { session } = await signedInSession();
    const before = tokenRequests();
    const token = await stack.app.auth.accessTokenForSession(session.id);
    expect(token).toBe(session.accessToken);
    expect(tokenRequests()).toBe(before);
  });

  it('refreshes once for 20 parallel requests at expiry and rotates the refresh token', async () => {
    const { session } = await signedInSession();
    await update(session.id, { accessTokenExpiresAt: Date.now() + 5_000 });
    const before = tokenRequests();

    const tokens = await Promise.all(
      Array.from({ length: 20 }, () => stack.app.auth.accessTokenForSession(session.id)),
    );

    expect(tokenRequests() - before).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(jti(tokens[0] ?? '')).not.toBe(jti(session.accessToken ?? ''));
    const refreshed = await stack.app.sessions.store.get(session.id);
    expect(refreshed?.refreshToken).toBeDefined();
    expect(refreshed?.refreshToken).not.toBe(session.refreshToken);
    expect(refreshed?.accessTokenExpiresAt).toBeGreaterThan(Date.now() + 5 * 60_000);

    const reuse = stack.app.auth.oidc.refresh(session.refreshToken ?? '');
    await expect(reuse).rejects.toBeInstanceOf(RefreshError);
    await expect(reuse).rejects.toMatchObject({ permanent: true });
  });

  it('forces one refresh after an upstream 401, shared by parallel callers', async () => {
    const { session } = await signedInSession();
    const request = { session: stack.app.sessions.view(session), hadSessionCookie: true };
    await update(session.id, { accessTokenIssuedAt: Date.now() - 60_000 });
    const before = tokenRequests();

    const forced = await Promise.all(
      Array.from({ length: 5 }, () => stack.app.auth.forceRefresh(request as never)),
    );

    expect(tokenRequests() - before).toBe(1);
    expect(new Set(forced).size).toBe(1);
    expect(forced[0]).not.toBe(session.accessToken);
    // A retry that comes back with 401 right after the refresh does not trigger a second one.
    expect(await stack.app.auth.forceRefresh(request as never)).toBe(forced[0]);
    expect(tokenRequests() - before).toBe(1);
  });

  it('ends the session when the refresh is refused, and tells the browser to sign in again', async () => {
    const { browser, session } = await signedInSession('sam@wayfare.example', 'sam-demo');
    await stack.app.auth.oidc.revoke(session.refreshToken ?? '');
    await update(session.id, { accessTokenExpiresAt: Date.now() - 1 });
    ends.length = 0;

    const attempt = stack.app.auth.accessTokenForSession(session.id);
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      status: 401,
      envelope: { error: { code: 'SESSION_EXPIRED', recoveryAction: 'BLOCKED' } },
    });
    expect(ends).toEqual([
      { sessionId: session.id, travelerId: session.travelerId, reason: 'refresh_failed' },
    ]);
    expect(await sessionStatus(browser)).toEqual({ authenticated: false });

    const api = await browser.fetch('/api/profile', { headers: APP_HEADERS });
    expect(api.status).toBe(401);
  });

  it('answers 401 UNAUTHORIZED without a session, and SESSION_EXPIRED once its cookie stopped working', async () => {
    const anonymous = { session: null, hadSessionCookie: false };
    await expect(stack.app.auth.accessTokenFor(anonymous as never)).rejects.toMatchObject({
      status: 401,
      envelope: { error: { code: 'UNAUTHORIZED', recoveryAction: 'BLOCKED' } },
    });
    const ended = { session: null, hadSessionCookie: true };
    await expect(stack.app.auth.accessTokenFor(ended as never)).rejects.toMatchObject({
      status: 401,
      envelope: { error: { code: 'SESSION_EXPIRED' } },
    });
  });
});

describe('session lifetime', () => {
  it('slides the idle deadline on activity', async () => {
    const { browser, session } = await signedInSession();
    await update(session.id, { lastSeenAt: Date.now() - 60_000 });
    const activeFrom = Date.now();
    await sessionStatus(browser);
    const touched = await stack.app.sessions.store.get(session.id);
    // Seen by the request just made, not by anything before it.
    expect(touched?.lastSeenAt).toBeGreaterThanOrEqual(activeFrom);
  });

  it('ends a session idle for longer than the idle timeout', async () => {
    const { browser, session } = await signedInSession();
    ends.length = 0;
    await update(session.id, {
      lastSeenAt: Date.now() - stack.app.config.SESSION_IDLE_TIMEOUT_SECONDS * 1000 - 1,
    });
    const response = await browser.fetch('/api/session');
    expect(await response.json()).toEqual({ authenticated: false });
    expect(response.headers.getSetCookie().join()).toMatch(/__Host-wayfare_session=;/);
    await expect.poll(() => ends.some((end) => end.sessionId === session.id)).toBe(true);
    expect(ends).toEqual([expect.objectContaining({ sessionId: session.id, reason: 'expired' })]);
  });

  it('ends a session past its absolute lifetime however active it is', async () => {
    const { browser, session } = await signedInSession();
    ends.length = 0;
    await update(session.id, { lastSeenAt: Date.now(), absoluteExpiresAt: Date.now() - 1 });
    expect(await sessionStatus(browser)).toEqual({ authenticated: false });
    await expect.poll(() => ends.length > 0).toBe(true);
    expect(ends).toEqual([expect.objectContaining({ sessionId: session.id, reason: 'expired' })]);
  });

  it('sweeps expired sessions without a request, so their streams can close', async () => {
    const { session } = await signedInSession();
    ends.length = 0;
    await update(session.id, { absoluteExpiresAt: Date.now() - 1 });
    await expect.poll(() => ends.some((end) => end.sessionId === session.id)).toBe(true);
    expect(await stack.app.sessions.store.get(session.id)).toBeUndefined();
  });
});

describe('logging', () => {
  it('keeps every token out of the log, refreshes and refused refreshes included', () => {
    expect(stack.logs.length).toBeGreaterThan(20);
    for (const line of stack.logs) {
      expect(line).not.toMatch(/eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\./);
      expect(line).not.toMatch(/refresh_token|dev-bff-client-secret/);
    }
  });
});
