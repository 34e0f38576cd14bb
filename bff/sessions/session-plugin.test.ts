import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import authPlugin from './auth-plugin.ts';
import csrfPlugin from '../plugins/csrf.ts';
import sessionPlugin, { type SessionEnd } from './session-plugin.ts';
import sessionRoute from '../routes/auth/session-routes.ts';
import { DEPLOYED_SECRETS } from '../test-support/deployed-secrets.ts';

const APP_HEADERS = { 'x-requested-with': 'wayfare', origin: 'http://localhost:3000' };

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The session capabilities alone, with the routes another part of the BFF would build on them. */
async function sessionApp(
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; ends: SessionEnd[] }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-session-'));
  const app = Fastify({ logger: false });
  app.decorate('config', loadConfig({ DATA_DIR: dataDir, ...env }));
  app.decorate('redis', null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof AppError) return reply.code(error.status).send(error.envelope);
    return reply.code(500).send({ error: { code: 'INTERNAL' } });
  });
  await app.register(sessionPlugin);
  await app.register(authPlugin);
  await app.register(csrfPlugin);
  await app.register(sessionRoute);
  app.post<{ Body: { expiresAt: string } }>('/api/guest-session', async (request, reply) => {
    const session = await app.sessions.createGuest(reply, {
      guestToken: 'guest-token-1',
      expiresAt: request.body.expiresAt,
    });
    return { kind: session.kind, expiresAt: session.expiresAt };
  });
  app.get('/api/guest-only', async (request) => ({ token: await app.auth.guestTokenFor(request) }));
  app.get('/api/traveler-only', async (request) => ({
    length: (await app.auth.accessTokenFor(request)).length,
  }));
  app.get('/api/needs-session', { onRequest: app.requireSession }, (request, reply) =>
    reply.send({ kind: request.session?.kind }),
  );
  app.get('/api/app/update-check', (_request, reply) => reply.send({ ok: true }));
  await app.ready();
  const ends: SessionEnd[] = [];
  app.sessions.onEnd((end) => ends.push(end));
  cleanups.push(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { app, ends };
}

function cookieFrom(setCookie: string | string[] | undefined): string {
  const line = ([] as string[]).concat(setCookie ?? []).find((entry) => entry.includes('wayfare_session='));
  return line?.split(';')[0] ?? '';
}

describe('guest sessions', () => {
  it('opens a guest session that carries the guest token server-side only', async () => {
    const { app } = await sessionApp();
    const expiresAt = new Date(Date.now() + 30 * 60_000).toISOString();
    const created = await app.inject({
      method: 'POST',
      url: '/api/guest-session',
      headers: APP_HEADERS,
      payload: { expiresAt },
    });
    expect(created.statusCode).toBe(200);
    expect(created.body).not.toContain('guest-token-1');
    const cookie = cookieFrom(created.headers['set-cookie']);
    expect(cookie).toMatch(/^__Host-wayfare_session=[A-Za-z0-9_-]{43}$/);

    const status = await app.inject({ url: '/api/session', headers: { cookie } });
    expect(status.json()).toEqual({ authenticated: true, kind: 'guest', expiresAt });

    const guest = await app.inject({ url: '/api/guest-only', headers: { ...APP_HEADERS, cookie } });
    expect(guest.json()).toEqual({ token: 'guest-token-1' });
    const traveler = await app.inject({ url: '/api/traveler-only', headers: { ...APP_HEADERS, cookie } });
    expect(traveler.statusCode).toBe(401);
    expect(traveler.json()).toMatchObject({ error: { code: 'UNAUTHORIZED', recoveryAction: 'BLOCKED' } });
  });

  it('replaces the browser’s previous session with a new id', async () => {
    const { app, ends } = await sessionApp();
    const expiresAt = new Date(Date.now() + 30 * 60_000).toISOString();
    const first = await app.inject({
      method: 'POST',
      url: '/api/guest-session',
      headers: APP_HEADERS,
      payload: { expiresAt },
    });
    const firstCookie = cookieFrom(first.headers['set-cookie']);
    const second = await app.inject({
      method: 'POST',
      url: '/api/guest-session',
      headers: { ...APP_HEADERS, cookie: firstCookie },
      payload: { expiresAt },
    });
    const secondCookie = cookieFrom(second.headers['set-cookie']);
    expect(secondCookie).not.toBe(firstCookie);
    expect(ends).toEqual([expect.objectContaining({ reason: 'logout', travelerId: undefined })]);
    expect((await app.inject({ url: '/api/session', headers: { cookie: firstCookie } })).json()).toEqual({
      authenticated: false,
    });
  });

  it('ends the guest session no later than its guest token', async () => {
    const { app } = await sessionApp();
    const soon = new Date(Date.now() + 60_000).toISOString();
    const created = await app.inject({
      method: 'POST',
      url: '/api/guest-session',
      headers: APP_HEADERS,
      payload: { expiresAt: soon },
    });
    expect(created.json()).toMatchObject({ expiresAt: soon });

    const stale = await app.inject({
      method: 'POST',
      url: '/api/guest-session',
      headers: APP_HEADERS,
      payload: { expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(stale.statusCode).toBe(502);
    expect(stale.headers['set-cookie']).toBeUndefined();
  });
});

describe('requireSession', () => {
  it('answers 401 UNAUTHORIZED without a cookie and SESSION_EXPIRED with one that no longer works', async () => {
    const { app } = await sessionApp();
    const none = await app.inject({ url: '/api/needs-session', headers: APP_HEADERS });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({
      error: {
        code: 'UNAUTHORIZED',
        message: 'Sign in to continue.',
        details: [],
        recoveryAction: 'BLOCKED',
        retryAfterSeconds: null,
      },
    });
    const dead = await app.inject({
      url: '/api/needs-session',
      headers: { ...APP_HEADERS, cookie: `__Host-wayfare_session=${'A'.repeat(43)}` },
    });
    expect(dead.statusCode).toBe(401);
    expect(dead.json()).toMatchObject({ error: { code: 'SESSION_EXPIRED', recoveryAction: 'BLOCKED' } });
    expect(String(dead.headers['set-cookie'])).toMatch(/__Host-wayfare_session=;/);
  });

  it('lets a request with a live session through', async () => {
    const { app } = await sessionApp();
    const expiresAt = new Date(Date.now() + 30 * 60_000).toISOString();
    const created = await app.inject({
      method: 'POST',
      url: '/api/guest-session',
      headers: APP_HEADERS,
      payload: { expiresAt },
    });
    const cookie = cookieFrom(created.headers['set-cookie']);
    const through = await app.inject({ url: '/api/needs-session', headers: { ...APP_HEADERS, cookie } });
    expect(through.json()).toEqual({ kind: 'guest' });
  });
});

describe('session cookie attributes', () => {
  it('drops __Host- and Secure on a plain-http host that is not loopback', async () => {
    const { app } = await sessionApp({ PUBLIC_ORIGIN: 'http://wayfare.internal:8080', ...DEPLOYED_SECRETS });
    const created = await app.inject({
      method: 'POST',
      url: '/api/guest-session',
      headers: { 'x-requested-with': 'wayfare', origin: 'http://wayfare.internal:8080' },
      payload: { expiresAt: new Date(Date.now() + 60_000).toISOString() },
    });
    const line = String(created.headers['set-cookie']);
    expect(line).toMatch(/^wayfare_session=[A-Za-z0-9_-]{43};/);
    expect(line).not.toMatch(/Secure/);
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
  });

  it('uses __Host- and Secure on https', async () => {
    const { app } = await sessionApp({ PUBLIC_ORIGIN: 'https://app.wayfare.example', ...DEPLOYED_SECRETS });
    const created = await app.inject({
      method: 'POST',
      url: '/api/guest-session',
      headers: { 'x-requested-with': 'wayfare', origin: 'https://app.wayfare.example' },
      payload: { expiresAt: new Date(Date.now() + 60_000).toISOString() },
    });
    const line = String(created.headers['set-cookie']);
    expect(line).toMatch(/^__Host-wayfare_session=[A-Za-z0-9_-]{43};/);
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/Domain/i);
  });
});

describe('anti-forgery', () => {
  it('exempts only the read-only probes from the header', async () => {
    const { app } = await sessionApp();
    expect((await app.inject({ url: '/api/session' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/app/update-check' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/session' })).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/needs-session' })).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/session-other' })).statusCode).toBe(403);
  });

  it('accepts the header from the app’s own origin, and a same-origin or user-initiated fetch', async () => {
    const { app } = await sessionApp();
    for (const headers of [
      { 'x-requested-with': 'wayfare' },
      { 'x-requested-with': 'wayfare', origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
      { 'x-requested-with': 'wayfare', 'sec-fetch-site': 'none' },
    ]) {
      expect((await app.inject({ url: '/api/needs-session', headers })).statusCode).toBe(401);
    }
    for (const headers of [
      { 'x-requested-with': 'wayfare', origin: 'http://localhost:3001' },
      { 'x-requested-with': 'wayfare', origin: 'null' },
      { 'x-requested-with': 'wayfare', 'sec-fetch-site': 'same-site' },
    ]) {
      const rejected = await app.inject({ url: '/api/needs-session', headers });
      expect(rejected.statusCode).toBe(403);
      expect(rejected.json()).toMatchObject({ error: { code: 'CSRF_REJECTED', recoveryAction: 'BLOCKED' } });
    }
  });
});
