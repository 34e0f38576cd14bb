import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ORIGIN,
  startSignInStack,
  type SignInStack,
  type TestBrowser,
} from '../../test-support/sign-in-stack.ts';
import type { SessionEnd } from '../../sessions/session-plugin.ts';
import { SIGN_INS_PER_MINUTE } from './auth-routes.ts';

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const SAM = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';
const TRAVELER_WITHOUT_SESSION = '5f1c2a7e-0b1d-4c5e-9a01-100000000008';
const APP_HEADERS = { 'x-requested-with': 'wayfare', origin: APP_ORIGIN, 'sec-fetch-site': 'same-origin' };
const JWT_PATTERN = /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\./;

let stack: SignInStack;
const ends: SessionEnd[] = [];
/** Every response a test saw outside a TestBrowser, for the leak check. */
const seen: string[] = [];

async function record(response: Response): Promise<{ response: Response; body: string }> {
  const body = await response.text();
  seen.push(
    `${response.status}\n${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${body}`,
  );
  return { response, body };
}

async function sessionOf(browser: TestBrowser): Promise<Record<string, unknown>> {
  const { body } = await record(await browser.fetch('/api/session'));
  return JSON.parse(body) as Record<string, unknown>;
}

function sessionCookieOf(browser: TestBrowser): string | undefined {
  return browser.cookie(APP_ORIGIN, '__Host-wayfare_session');
}

async function identityLogoutToken(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const file = path.join(stack.dataDir, 'identity', 'signing-keys.json');
  const { keys } = JSON.parse(await readFile(file, 'utf8')) as { keys: Array<{ jwk: JWK }> };
  const jwk = keys[0]!.jwk;
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT({
    iss: stack.identity.issuer,
    aud: 'wayfare-bff',
    events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
    jti: crypto.randomUUID(),
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'logout+jwt', ...header })
    .setIssuedAt()
    .setExpirationTime('2m')
    .sign(key);
}

async function postLogoutToken(token: string): Promise<{ response: Response; body: string }> {
  return record(
    await fetch(`${stack.bffUrl}/auth/backchannel-logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }).toString(),
    }),
  );
}

beforeAll(async () => {
  stack = await startSignInStack();
  stack.app.sessions.onEnd((end) => ends.push(end));
});

afterAll(async () => {
  await stack.close();
});

describe('sign-in', () => {
  it('signs a traveler in with PKCE and returns to the remembered local path', async () => {
    const browser = stack.browser();
    const login = await browser.fetch('/auth/login?returnTo=%2Fbookings%3Fstatus%3Dconfirmed');
    await record(login);
    expect(login.status).toBe(303);
    const authorize = new URL(login.headers.get('location') ?? '');
    expect(authorize.origin).toBe(stack.identity.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${APP_ORIGIN}/auth/callback`);

    const { final, url, chain } = await stack.signIn({ browser, returnTo: '/bookings?status=confirmed' });
    expect(url).toBe(`${APP_ORIGIN}/bookings?status=confirmed`);
    expect(final.status).not.toBe(404);

    const callback = chain.find((response) =>
      response.headers.getSetCookie().some((c) => c.startsWith('__Host-wayfare_session=')),
    );
    const cookie = callback?.headers.getSetCookie().find((c) => c.startsWith('__Host-wayfare_session='));
    expect(cookie).toMatch(/^__Host-wayfare_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);

    const session = await sessionOf(browser);
    expect(session).toMatchObject({
      authenticated: true,
      kind: 'traveler',
      traveler: { id: ALEX, name: 'Alex Morgan', email: 'alex@wayfare.example' },
    });
    expect(Date.parse(session.expiresAt as string)).toBeGreaterThan(Date.now());
  });

  it('issues a new session id on every sign-in and retires the previous one', async () => {
    const { browser } = await stack.signIn();
    const first = sessionCookieOf(browser);
    await stack.signIn({ browser });
    const second = sessionCookieOf(browser);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    const replay = stack.browser();
    replay.setCookie(APP_ORIGIN, '__Host-wayfare_session', first ?? '');
    expect(await sessionOf(replay)).toEqual({ authenticated: false });
    expect(await sessionOf(browser)).toMatchObject({ authenticated: true });
  });

  it('shows an error on the sign-in page for a wrong password and opens no session', async () => {
    const browser = stack.browser();
    const login = await browser.navigate('/auth/login');
    const html = await login.final.text();
    const action = /action="([^"]+\/login)"/.exec(html)?.[1] ?? '';
    const { final } = await browser.navigate(new URL(action, login.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'alex@wayfare.example', password: 'not-it' }).toString(),
    });
    const page = await final.text();
    expect(final.status).toBe(401);
    expect(page).toContain('role="alert"');
    expect(page).toContain('The email or password is not right');
    expect(page).toMatch(/<label for="password">Password<\/label>/);
    expect(sessionCookieOf(browser)).toBeUndefined();
  });

  it('returns a traveler who cancels on the sign-in page to the home page, signed out', async () => {
    const browser = stack.browser();
    const login = await browser.navigate('/auth/login?returnTo=%2Fbookings');
    const html = await login.final.text();
    const abort = /action="([^"]+\/abort)"/.exec(html)?.[1] ?? '';
    const { url } = await browser.navigate(new URL(abort, login.url).href, { method: 'POST' });
    expect(url).toBe(`${APP_ORIGIN}/`);
    expect(sessionCookieOf(browser)).toBeUndefined();
    expect(await sessionOf(browser)).toEqual({ authenticated: false });
  });

  it('refuses a return path that leaves the site', async () => {
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\r\nLocation: https://evil.example',
      'evil.example',
    ]) {
      const browser = stack.browser();
      const { response, body } = await record(
        await browser.fetch(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`),
      );
      expect(response.status, returnTo).toBe(422);
      expect(response.headers.get('location')).toBeNull();
      expect(JSON.parse(body)).toMatchObject({
        error: { code: 'VALIDATION_ERROR', recoveryAction: 'FIX_INPUT', details: [{ field: 'returnTo' }] },
      });
    }
  });

  it('refuses the reported spellings that resolved to //evil.example after sign-in', async () => {
    for (const query of [
      '%2F..%2F%2Fevil.example',
      '%2F.%2F%2Fevil.example',
      '%2Fa%2F..%2F%2Fevil.example',
      '%2F%252e%252e%2F%2Fevil.example',
    ]) {
      const browser = stack.browser();
      const response = await browser.fetch(`/auth/login?returnTo=${query}`);
      expect(response.status, query).toBe(422);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('refuses a callback carrying another sign-in’s code (login forgery)', async () => {
    const victim = stack.browser();
    const started = await victim.fetch('/auth/login?returnTo=%2Fbookings');
    expect(started.status).toBe(303);
    const attacker = await stack.signIn({
      email: 'sam@wayfare.example',
      password: 'sam-demo',
      returnTo: '/',
    });
    const attackerCallback = attacker.chain
      .map((response) => response.headers.get('location') ?? '')
      .find((location) => location.includes('/auth/callback'));
    expect(attackerCallback).toBeDefined();

    const { response, body } = await record(await victim.fetch(attackerCallback ?? ''));
    expect(response.status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'SIGN_IN_FAILED' } });
    expect(sessionCookieOf(victim)).toBeUndefined();
  });

  it('refuses a callback that no sign-in of this browser started', async () => {
    const { browser, chain } = await stack.signIn();
    const callbackUrl = chain
      .map((r) => r.headers.get('location') ?? '')
      .find((l) => l.includes('/auth/callback'));
    expect(callbackUrl).toBeDefined();
    const { response, body } = await record(await stack.browser().fetch(callbackUrl ?? ''));
    expect(response.status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({
      error: { code: 'SIGN_IN_FAILED', recoveryAction: 'RETRY_NOW' },
    });
    // The browser that signed in, coming back to the same callback, stays in the session it has: the
    // code is not exchanged again.
    const cookie = sessionCookieOf(browser);
    const again = await record(await browser.fetch(callbackUrl ?? ''));
    expect(again.response.status).toBe(303);
    expect(again.response.headers.get('location')).toBe('/');
    expect(sessionCookieOf(browser)).toBe(cookie);
  });

  it('sends a browser whose sign-in failed to the start page, which says why, never to a JSON body', async () => {
    const { chain } = await stack.signIn();
    const callbackUrl = chain
      .map((r) => r.headers.get('location') ?? '')
      .find((l) => l.includes('/auth/callback'));
    const navigation = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const stranger = stack.browser();
    const { response } = await record(await stranger.fetch(callbackUrl ?? '', { headers: navigation }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/?signIn=expired');
    expect(sessionCookieOf(stranger)).toBeUndefined();
  });

  it('lets tabs that started a sign-in at once each come back signed in, with one session for the browser', async () => {
    // Signed in at the identity platform, the browser lost its app session (Redis restarted empty, say):
    // each open tab starts a sign-in before any has come back.
    const { browser } = await stack.signIn();
    browser.setCookie(APP_ORIGIN, '__Host-wayfare_session', 'lost');
    const tabs = [];
    for (const returnTo of ['/inbox', '/bookings', '/trips']) {
      const login = await browser.fetch(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
      expect(login.status).toBe(303);
      tabs.push({ returnTo, authorize: login.headers.get('location') ?? '' });
    }
    // The first tab, whose sign-in started before the two others, comes back first.
    const first = await browser.navigate(tabs[0]!.authorize);
    expect(first.url).toBe(`${APP_ORIGIN}/inbox`);
    const cookie = sessionCookieOf(browser);
    expect(await sessionOf(browser)).toMatchObject({ authenticated: true, kind: 'traveler' });
    for (const tab of tabs.slice(1)) {
      const later = await browser.navigate(tab.authorize);
      expect(later.url).toBe(`${APP_ORIGIN}${tab.returnTo}`);
      expect(sessionCookieOf(browser)).toBe(cookie);
    }
    expect(await sessionOf(browser)).toMatchObject({ authenticated: true, kind: 'traveler' });
  });
});

describe('anti-forgery', () => {
  it('rejects state-changing and token-attaching calls without the header or from another origin', async () => {
    const { browser } = await stack.signIn();
    const attempts: Array<[string, string, Record<string, string>]> = [
      ['POST', '/auth/logout', {}],
      ['POST', '/auth/logout', { ...APP_HEADERS, origin: 'https://evil.example' }],
      ['POST', '/auth/logout', { ...APP_HEADERS, 'sec-fetch-site': 'cross-site' }],
      ['POST', '/auth/logout', { ...APP_HEADERS, 'sec-fetch-site': 'same-site' }],
      ['POST', '/auth/logout', { ...APP_HEADERS, 'x-requested-with': 'XMLHttpRequest' }],
      ['GET', '/api/profile', {}],
      ['GET', '/api/notifications', { origin: APP_ORIGIN }],
      ['PATCH', '/api/profile', { 'sec-fetch-site': 'same-origin' }],
    ];
    for (const [method, url, headers] of attempts) {
      const { response, body } = await record(await browser.fetch(url, { method, headers }));
      expect(response.status, `${method} ${url} ${JSON.stringify(headers)}`).toBe(403);
      expect(JSON.parse(body)).toEqual({
        error: {
          code: 'CSRF_REJECTED',
          message: expect.any(String) as string,
          details: [],
          recoveryAction: 'BLOCKED',
          retryAfterSeconds: null,
        },
      });
    }
    expect(await sessionOf(browser)).toMatchObject({ authenticated: true, kind: 'traveler' });
  });

  it('lets the session check through without the header', async () => {
    const response = await stack.browser().fetch('/api/session');
    expect(response.status).toBe(200);
  });
});

describe('session cookie', () => {
  it('ignores a tampered cookie and clears it', async () => {
    const { browser } = await stack.signIn();
    const cookie = sessionCookieOf(browser) ?? '';
    const tampered = `${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}`;
    const attacker = stack.browser();
    attacker.setCookie(APP_ORIGIN, '__Host-wayfare_session', tampered);
    const { response, body } = await record(await attacker.fetch('/api/session'));
    expect(JSON.parse(body)).toEqual({ authenticated: false });
    expect(response.headers.getSetCookie().join()).toMatch(/__Host-wayfare_session=;/);

    const guarded = await record(await attacker.fetch('/api/profile', { headers: APP_HEADERS }));
    expect(guarded.response.status).toBe(401);
    expect(JSON.parse(guarded.body)).toMatchObject({ error: { recoveryAction: 'BLOCKED' } });
  });
});

describe('logout', () => {
  it('ends the BFF session and, through the returned end-session page, the identity session', async () => {
    const { browser } = await stack.signIn({ email: 'sam@wayfare.example', password: 'sam-demo' });
    const cookie = sessionCookieOf(browser) ?? '';
    const identitySessionId = (await stack.app.sessions.store.get(cookie))?.identitySessionId;
    expect(identitySessionId).toBeTruthy();
    ends.length = 0;

    const { response, body } = await record(
      await browser.fetch('/auth/logout', { method: 'POST', headers: APP_HEADERS }),
    );
    expect(response.status).toBe(200);
    const { redirectTo } = JSON.parse(body) as { redirectTo: string };
    const endSession = new URL(redirectTo);
    expect(endSession.origin).toBe(stack.identity.issuer);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${APP_ORIGIN}/`);
    expect(endSession.searchParams.has('id_token_hint')).toBe(false);
    expect(endSession.searchParams.get('logout_hint')).toBe(identitySessionId);
    expect(ends).toEqual([expect.objectContaining({ travelerId: SAM, reason: 'logout' })]);
    expect(await sessionOf(browser)).toEqual({ authenticated: false });

    const replay = stack.browser();
    replay.setCookie(APP_ORIGIN, '__Host-wayfare_session', cookie);
    expect(await sessionOf(replay)).toEqual({ authenticated: false });

    const confirm = await browser.navigate(redirectTo);
    const page = await confirm.final.text();
    // The traveler pressed Sign out in the app: the platform does not ask again, its page confirms itself.
    expect(page).toContain('Signing you out…');
    expect(page).not.toContain('Sign out of Wayfare?');
    const form = /<form[^>]*action="([^"]+)"[^>]*>[\s\S]*?name="xsrf" value="([^"]+)"/.exec(page);
    expect(form).not.toBeNull();
    const signedOut = await browser.navigate(new URL(form?.[1] ?? '', confirm.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: form?.[2] ?? '', logout: 'yes' }).toString(),
    });
    expect(signedOut.url).toBe(`${APP_ORIGIN}/`);

    // The identity platform asks for the password again: its session is gone too.
    const again = await browser.navigate('/auth/login');
    expect(again.url).toMatch(/\/interaction\//);
    expect(await again.final.text()).toContain('<label for="email">Email</label>');
  });
});

describe('back-channel logout', () => {
  it('ends the sessions of the identity session the platform logged out, and only those', async () => {
    const alex = await stack.signIn();
    const sam = await stack.signIn({ email: 'sam@wayfare.example', password: 'sam-demo' });
    ends.length = 0;

    // Alex signs out at the identity platform directly (another app, or the platform's own page).
    const endSession = await alex.browser.navigate(new URL('/session/end', stack.identity.issuer).href);
    const page = await endSession.final.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*>[\s\S]*?name="xsrf" value="([^"]+)"/.exec(page);
    await alex.browser.navigate(new URL(form?.[1] ?? '', endSession.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: form?.[2] ?? '', logout: 'yes' }).toString(),
    });

    expect(ends).toEqual([expect.objectContaining({ travelerId: ALEX, reason: 'backchannel' })]);
    expect(await sessionOf(alex.browser)).toEqual({ authenticated: false });
    expect(await sessionOf(sam.browser)).toMatchObject({ authenticated: true, traveler: { id: SAM } });
  });

  it('ends nothing for a valid logout token naming another sub or sid, and refuses replays and forgeries', async () => {
    const alex = await stack.signIn();
    const stored = await stack.app.sessions.store.get(sessionCookieOf(alex.browser) ?? '');
    expect(stored?.identitySessionId).toBeTruthy();
    ends.length = 0;

    const otherSub = await postLogoutToken(await identityLogoutToken({ sub: TRAVELER_WITHOUT_SESSION }));
    expect(otherSub.response.status).toBe(200);
    const otherSid = await postLogoutToken(await identityLogoutToken({ sid: 'not-a-session-of-anyone' }));
    expect(otherSid.response.status).toBe(200);
    const mismatched = await postLogoutToken(
      await identityLogoutToken({ sub: SAM, sid: stored?.identitySessionId }),
    );
    expect(mismatched.response.status).toBe(200);
    expect(ends).toEqual([]);
    expect(await sessionOf(alex.browser)).toMatchObject({ authenticated: true });

    const forgeries = [
      await identityLogoutToken({ sub: ALEX, nonce: 'n' }),
      await identityLogoutToken({ sub: ALEX, events: {} }),
      await identityLogoutToken({ sub: ALEX }, { typ: 'JWT' }),
      await identityLogoutToken({ sub: ALEX, aud: 'another-client' }),
      await identityLogoutToken({ sub: ALEX, iss: 'https://evil.example' }),
      await identityLogoutToken({}),
      `${Buffer.from('{"alg":"none","typ":"logout+jwt"}').toString('base64url')}.${Buffer.from(
        JSON.stringify({ iss: stack.identity.issuer, aud: 'wayfare-bff', sub: ALEX, iat: 1, jti: 'x' }),
      ).toString('base64url')}.`,
      'not-a-jwt',
    ];
    for (const [index, token] of forgeries.entries()) {
      const { response, body } = await postLogoutToken(token);
      expect(response.status, `forgery ${index}`).toBe(400);
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'INVALID_LOGOUT_TOKEN' } });
    }
    expect(ends).toEqual([]);

    const genuine = await identityLogoutToken({ sub: ALEX, sid: stored?.identitySessionId });
    expect((await postLogoutToken(genuine)).response.status).toBe(200);
    expect(ends).toEqual([expect.objectContaining({ travelerId: ALEX, reason: 'backchannel' })]);
    const replay = await postLogoutToken(genuine);
    expect(replay.response.status).toBe(400);
    expect(await sessionOf(alex.browser)).toEqual({ authenticated: false });
  });
});

describe('token confidentiality', () => {
  it('never puts a token in a response body, a header or a log line', async () => {
    const { browser } = await stack.signIn({ email: 'jordan@wayfare.example', password: 'jordan-demo' });
    await sessionOf(browser);
    const [stored] = await stack.app.sessions.store.findBySubject('5f1c2a7e-0b1d-4c5e-9a01-000000000003');
    const secrets = [stored?.accessToken, stored?.refreshToken].filter((value): value is string =>
      Boolean(value),
    );
    expect(secrets).toHaveLength(2);
    await record(await browser.fetch('/auth/logout', { method: 'POST', headers: APP_HEADERS }));

    const everything = [...seen, ...stack.transcript, ...stack.logs];
    expect(everything.length).toBeGreaterThan(20);
    for (const text of everything) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(JWT_PATTERN);
      expect(text).not.toContain('dev-bff-client-secret');
    }
  });
});

describe('sign-in flood', () => {
  it('limits how many sign-ins one address may start per minute', async () => {
    const flooded = await startSignInStack();
    try {
      const browser = flooded.browser();
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= SIGN_INS_PER_MINUTE; attempt += 1) {
        statuses.push((await browser.fetch('/auth/login')).status);
      }
      expect(statuses.slice(0, SIGN_INS_PER_MINUTE).every((status) => status === 303)).toBe(true);
      const refused = await browser.fetch('/auth/login');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({
        error: { code: 'RATE_LIMIT_EXCEEDED', recoveryAction: 'RETRY_LATER' },
      });
    } finally {
      await flooded.close();
    }
  });
});
