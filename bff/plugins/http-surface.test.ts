import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { DEPLOYED_SECRETS } from '../test-support/deployed-secrets.ts';
import { newSessionId } from '../sessions/session-plugin.ts';

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';

let root: string;
let webDist: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wayfare-http-surface-'));
  webDist = path.join(root, 'web');
  await mkdir(path.join(webDist, 'assets'), { recursive: true });
  await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
  await writeFile(path.join(webDist, 'assets', 'index-Ab12Cd34.js'), 'console.log("app");');
  await writeFile(path.join(webDist, 'sw.js'), 'self.addEventListener("push", () => {});');
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * A signed-in browser's cookie, its session written straight into the store: the session gate refuses
 * strangers before any body is read, so body errors are seen by a signed-in traveler.
 */
async function signedInCookie(bff: FastifyInstance): Promise<string> {
  const id = newSessionId();
  const now = Date.now();
  await bff.sessions.store.set({
    id,
    kind: 'traveler',
    createdAt: now,
    lastSeenAt: now,
    absoluteExpiresAt: now + 3_600_000,
    travelerId: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
    name: 'Alex Morgan',
    email: 'alex@wayfare.example',
    accessToken: 'access-token',
    accessTokenExpiresAt: now + 3_600_000,
    accessTokenIssuedAt: now,
  });
  return `${bff.sessions.cookie.name}=${id}`;
}

async function app(env: Record<string, string> = {}, logLines?: string[]): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: path.join(root, `bff-${apps.length}-${Date.now()}`),
    WEB_DIST_DIR: webDist,
    TRAVEL_API_URL: 'http://127.0.0.1:9',
    OIDC_ISSUER: 'http://127.0.0.1:9',
    ...env,
  });
  const logger = logLines
    ? {
        level: 'debug',
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
            done();
          },
        }),
      }
    : false;
  const built = await buildApp({ config, logger });
  apps.push(built);
  return built;
}

/** The anti-forgery gate covers every /api path, the documentation included. */
const ANTI_FORGERY = { 'x-requested-with': 'wayfare' };

const envelopeOf = (body: string) => ErrorEnvelopeSchema.parse(JSON.parse(body)).error;

describe('security headers', () => {
  it('sends a strict CSP, nosniff, no framing and a referrer policy on pages, API answers and errors alike', async () => {
    const bff = await app();
    for (const url of ['/', '/bookings', '/healthz', '/api/nowhere', '/assets/index-Ab12Cd34.js']) {
      const response = await bff.inject({ method: 'GET', url });
      const csp = response.headers['content-security-policy'];
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("worker-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('sends HSTS only when the app is served over TLS', async () => {
    const plain = await app();
    expect((await plain.inject('/healthz')).headers['strict-transport-security']).toBeUndefined();
    const tls = await app({ PUBLIC_ORIGIN: 'https://app.wayfare.example', ...DEPLOYED_SECRETS });
    const response = await tls.inject('/healthz');
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('mints its own request id instead of taking the browser’s', async () => {
    const bff = await app();
    const response = await bff.inject({ url: '/healthz', headers: { 'x-request-id': 'chosen-by-client' } });
    expect(response.headers['x-request-id']).not.toBe('chosen-by-client');
  });
});

describe('the built SPA', () => {
  it('serves hashed assets as immutable and index.html to be revalidated', async () => {
    const bff = await app();
    const asset = await bff.inject('/assets/index-Ab12Cd34.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await bff.inject('/');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.body).toBe(INDEX_HTML);
    expect((await bff.inject('/sw.js')).headers['cache-control']).toBe('no-cache');
  });

  it('answers client routes with index.html, and server paths and missing files with the 404 envelope', async () => {
    const bff = await app();
    const clientRoute = await bff.inject('/trips/4b7e/segment/9c1d?tab=status');
    expect(clientRoute.statusCode).toBe(200);
    expect(clientRoute.headers['content-type']).toContain('text/html');
    expect(clientRoute.headers['cache-control']).toBe('no-cache');
    for (const url of ['/api/unknown', '/auth/unknown', '/webhooks/unknown', '/assets/missing-1234.js']) {
      const response = await bff.inject({ url, headers: ANTI_FORGERY });
      expect(response.statusCode, url).toBe(404);
      expect(envelopeOf(response.body).code).toBe('RESOURCE_NOT_FOUND');
    }
    const post = await bff.inject({ method: 'POST', url: '/bookings' });
    expect(post.statusCode).toBe(404);
  });

  it('refuses to start in production without a built SPA', async () => {
    await expect(app({ NODE_ENV: 'production', WEB_DIST_DIR: path.join(root, 'missing') })).rejects.toThrow(
      /WEB_DIST_DIR has no index\.html/,
    );
  });
});

describe('the OpenAPI document', () => {
  it('is generated from the route schemas and served at /api/docs in development', async () => {
    const bff = await app({ NODE_ENV: 'development' });
    const document = JSON.parse((await bff.inject({ url: '/api/docs/json' })).body) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/flights/search',
        '/api/bookings',
        '/api/app/update-check',
        '/api/profile',
      ]),
    );
    expect(document.paths['/api/flights/search']?.post?.requestBody).toBeDefined();
    expect(Object.keys(document.paths['/api/bookings']?.get?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '4XX', '5XX']),
    );
    // Every route documents its answers; the streams as text/event-stream with their event names.
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).not.toEqual([]);
      }
    }
    const streams: [string, 'get' | 'post', string[]][] = [
      [
        '/api/notifications/stream',
        'get',
        ['notification', 'status', 'resync', 'session-ended', 'reconnect'],
      ],
      ['/api/stays/search', 'post', ['property', 'progress', 'done', 'error', 'truncated']],
      ['/api/stays/fares', 'post', ['fare', 'done', 'error', 'truncated']],
    ];
    for (const [path, method, events] of streams) {
      const ok = document.paths[path]?.[method]?.responses['200'] as
        { content?: Record<string, { schema?: unknown }> } | undefined;
      const schema = JSON.stringify(ok?.content?.['text/event-stream']?.schema ?? null);
      for (const event of events)
        expect(schema, `${path}: ${event}`).toContain(`"event":{"type":"string","enum":["${event}"]}`);
    }
    // Opened in a browser tab: a plain navigation, without the app's anti-forgery header.
    const ui = await bff.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
  });

  it('is not served in production', async () => {
    const bff = await app({ NODE_ENV: 'production' });
    expect((await bff.inject({ url: '/api/docs/json' })).statusCode).toBe(404);
  });
});

describe('errors', () => {
  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const bff = await app();
    const response = await bff.inject({
      method: 'POST',
      url: '/api/flights/search',
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'wayfare',
        cookie: await signedInCookie(bff),
      },
      payload: JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(envelopeOf(response.body)).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      recoveryAction: 'FIX_INPUT',
    });
  });

  it('answers a body that is not JSON with VALIDATION_ERROR on the body', async () => {
    const bff = await app();
    const response = await bff.inject({
      method: 'POST',
      url: '/api/flights/search',
      headers: {
        'content-type': 'text/plain',
        'x-requested-with': 'wayfare',
        cookie: await signedInCookie(bff),
      },
      payload: 'itinerary=ZRH-JFK',
    });
    expect(response.statusCode).toBe(422);
    expect(envelopeOf(response.body).details).toEqual([
      expect.objectContaining({ field: 'body', code: 'content_type' }),
    ]);
  });

  it('answers the travel API being unreachable with 502 BAD_GATEWAY and no internal detail', async () => {
    const bff = await app();
    const response = await bff.inject({
      url: '/api/app/update-check',
      headers: { 'x-requested-with': 'wayfare' },
    });
    expect(response.statusCode).toBe(502);
    const error = envelopeOf(response.body);
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', recoveryAction: 'RETRY_LATER' });
    expect(response.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|stack/);
  });
});

describe('log redaction', () => {
  it('writes JSON lines with request ids and masks tokens, cookies, signatures and secrets', async () => {
    const lines: string[] = [];
    const bff = await app({}, lines);
    bff.log.info(
      {
        headers: {
          authorization: 'Bearer eyJ.secret.token',
          cookie: '__Host-wayfare_session=session-cookie-value',
          'service-signature': 'service-signature-value',
        },
        upstream: { token: 'wgs_guest_token_value', secret: 'consumer-secret-value' },
        refreshToken: 'refresh-token-value',
      },
      'diagnostic line',
    );
    await bff.inject({
      url: '/healthz',
      headers: { authorization: 'Bearer eyJ.secret.token', cookie: 'a=b' },
    });
    const output = lines.join('\n');
    for (const secret of [
      'eyJ.secret.token',
      'session-cookie-value',
      'service-signature-value',
      'wgs_guest_token_value',
      'consumer-secret-value',
      'refresh-token-value',
    ]) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('[redacted]');
    const requestLine = lines
      .map((line) => JSON.parse(line) as { reqId?: string })
      .find((line) => line.reqId);
    expect(requestLine?.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
