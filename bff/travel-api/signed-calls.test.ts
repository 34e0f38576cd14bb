import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorEnvelope, ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { verifySignature } from '#shared/upstream/verify-signature.ts';
import { ConsumerRegistry } from '../../upstream/travel-api/consumer-registry.ts';
import { AppError } from '../errors.ts';
import { APP_ORIGIN, type TestBrowser } from '../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack, type TappedRequest } from '../test-support/gateway-stack.ts';
import { createTravelApiClient } from './travel-api-client.ts';

const DEFAULT_SECRET = 'dev-consumer-secret-change-me-0001';

/** What the BFF may send upstream; anything else would be a header leaking through from the browser. */
const UPSTREAM_HEADERS = new Set([
  'host',
  'connection',
  'accept',
  'content-type',
  'content-length',
  'x-request-id',
  'service-consumer',
  'service-timestamp',
  'service-signature',
  'authorization',
  // The BFF's own W3C trace context, present once telemetry runs in the process (another test file of
  // the worker may have started it): a new span of the caller's trace, never a header the browser wrote.
  'traceparent',
  'tracestate',
]);

function signedWith(request: TappedRequest, secret: string): boolean {
  return verifySignature({
    headers: {
      consumer: request.headers['service-consumer'] as string,
      timestamp: request.headers['service-timestamp'] as string,
      signature: request.headers['service-signature'] as string,
    },
    method: request.method,
    path: request.url,
    body: request.body,
    secrets: { current: secret },
    now: request.at,
  }).ok;
}

async function get(browser: TestBrowser, path: string, headers: Record<string, string> = {}) {
  const response = await browser.fetch(path, { headers: { 'x-requested-with': 'wayfare', ...headers } });
  return { response, json: (await response.json()) as unknown };
}

function captureLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('signed calls to the travel API stand-in', () => {
  let stack: GatewayStack;
  let alex: TestBrowser;

  beforeAll(async () => {
    // Each update check must reach the travel API to show which secret signed it: no shared answer kept.
    stack = await startGatewayStack({ bffEnv: { UPDATE_CHECK_CACHE_SECONDS: '0' } });
    alex = await stack.signIn();
  });

  afterAll(async () => {
    await stack.close();
  });

  const callsFor = (response: Response) =>
    stack.tap.seen.filter(
      (request) => request.headers['x-request-id'] === response.headers.get('x-request-id'),
    );

  it('signs a retry again with a fresh timestamp: two attempts, two timestamps, both valid', async () => {
    stack.tap.answerNext('/v1/profile', {
      status: 503,
      body: errorEnvelope('SERVICE_UNAVAILABLE', { message: 'Try again', retryAfterSeconds: 1 }),
    });
    const { response } = await get(alex, '/api/profile');

    expect(response.status).toBe(200);
    const attempts = callsFor(response);
    expect(attempts).toHaveLength(2);
    const [first, second] = attempts;
    expect(first?.headers['service-timestamp']).not.toBe(second?.headers['service-timestamp']);
    expect(attempts.every((attempt) => signedWith(attempt, DEFAULT_SECRET))).toBe(true);
  });

  it('refreshes the traveler’s token once after 401 UNAUTHORIZED and retries with the new token', async () => {
    const sessionId = alex.cookie(APP_ORIGIN, stack.app.sessions.cookie.name) ?? '';
    const stored = await stack.app.sessions.store.get(sessionId);
    expect(stored?.accessToken).toBeDefined();
    // The token was issued a minute ago, so a forced refresh is not answered from the recent-refresh cache.
    if (stored) await stack.app.sessions.store.set({ ...stored, accessTokenIssuedAt: Date.now() - 60_000 });
    stack.tap.answerNext('/v1/profile', {
      status: 401,
      body: errorEnvelope('UNAUTHORIZED', { message: 'Token expired', recoveryAction: 'BLOCKED' }),
    });
    const { response } = await get(alex, '/api/profile');
    expect(response.status).toBe(200);
    const [rejected, retried] = callsFor(response);
    expect(retried?.headers.authorization).toMatch(/^Bearer ey/);
    expect(retried?.headers.authorization).not.toBe(rejected?.headers.authorization);
  });

  it('keeps the browser’s cookies and headers away from the travel API', async () => {
    const { response } = await get(alex, '/api/profile', {
      authorization: 'Bearer browser-made-token',
      'x-forwarded-for': '203.0.113.9',
      'service-consumer': 'someone-else',
      'x-debug': 'on',
    });
    expect(response.status).toBe(200);
    for (const call of callsFor(response)) {
      expect(Object.keys(call.headers).filter((name) => !UPSTREAM_HEADERS.has(name))).toEqual([]);
      expect(call.headers.cookie).toBeUndefined();
      expect(call.headers.authorization).not.toBe('Bearer browser-made-token');
      expect(call.headers['service-consumer']).toBe('wayfare-web');
    }
  });

  it('keeps the travel API’s cookies, signature and internal headers away from the browser', async () => {
    for (const path of ['/api/profile', '/api/app/update-check', '/api/bookings?limit=1']) {
      const { response } = await get(alex, path);
      expect(response.status).toBe(200);
      expect(callsFor(response).length).toBeGreaterThan(0);
      const setCookies = response.headers.getSetCookie().join('\n');
      expect(setCookies).not.toContain('upstream-affinity');
      for (const name of [
        'x-upstream-node',
        'service-consumer',
        'service-timestamp',
        'service-signature',
        'authorization',
      ]) {
        expect(response.headers.get(name)).toBeNull();
      }
    }
  });

  it('diagnoses a rejected signature as clock skew when the local clock is ten minutes ahead', async () => {
    const logs = captureLogs();
    const client = createTravelApiClient({
      baseUrl: stack.travelApiUrl,
      consumerSlug: 'wayfare-web',
      consumerSecret: DEFAULT_SECRET,
      timeoutMs: 2_000,
      retryBudgetMs: 0,
      logger: logs.logger,
      now: () => Date.now() + 10 * 60_000,
    });
    try {
      const error = await client
        .request({
          method: 'GET',
          path: '/v1/app/update-check',
          auth: { kind: 'none' },
          requestId: 'skew',
          schema: z.unknown(),
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('CONSUMER_AUTH_REQUIRED');
      const fault = logs.lines.find((line) => line.configurationFault === 'consumer-signature');
      expect(fault?.msg).toMatch(/clock skew of (599|60\d) s/);
    } finally {
      await client.close();
    }
  });

  it('diagnoses a wrong secret, answers the browser 502 without the reason, and logs no secret', async () => {
    const wrong = await stack.startBff({ CONSUMER_SECRET: 'not-the-consumer-secret-0000000001' });
    const response = await fetch(`${wrong.url}/api/app/update-check`);
    const body = ErrorEnvelopeSchema.parse(await response.json());
    expect(response.status).toBe(502);
    expect(body.error).toMatchObject({ code: 'CONSUMER_AUTH_REQUIRED', recoveryAction: 'CONTACT_SUPPORT' });
    expect(body.error.message).not.toMatch(/secret|skew/i);
    const fault = wrong.logs.find((line) => line.includes('"configurationFault":"consumer-signature"'));
    expect(fault).toContain('secret rejected (wrong or rotated secret)');
    expect(wrong.logs.join('\n')).not.toContain('not-the-consumer-secret');

    const readiness = await fetch(`${wrong.url}/readyz`);
    expect(readiness.status).toBe(503);
    expect(ErrorEnvelopeSchema.parse(await readiness.json()).error.details).toEqual([
      expect.objectContaining({ field: 'travelApi', code: 'unavailable', message: 'CONSUMER_AUTH_REQUIRED' }),
    ]);
    expect((await fetch(`${wrong.url}/healthz`)).status).toBe(200);
  });

  it('is ready when the identity platform answers and the travel API accepts its signature', async () => {
    const response = await fetch(`${stack.bffUrl}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', checks: { identity: 'ok', travelApi: 'ok' } });
  });

  it('rotates the consumer secret with no failed request: old secret, then the new one', async () => {
    const statuses: number[] = [];
    const signedBy: string[] = [];
    const call = async (url: string, secrets: Record<string, string>) => {
      const response = await fetch(`${url}/api/app/update-check`);
      await response.arrayBuffer();
      statuses.push(response.status);
      const [upstream] = callsFor(response);
      signedBy.push(
        Object.entries(secrets).find(([, secret]) => upstream && signedWith(upstream, secret))?.[0] ?? 'none',
      );
    };

    await call(stack.bffUrl, { old: DEFAULT_SECRET });
    const rotation = new ConsumerRegistry(stack.travelApiConfig.TRAVEL_API_CONSUMER_REGISTRY_FILE).rotate(
      'wayfare-web',
    );
    const secrets = { old: DEFAULT_SECRET, new: rotation.secret };
    await call(stack.bffUrl, secrets);
    await call(stack.bffUrl, secrets);
    const restarted = await stack.startBff({ CONSUMER_NEXT_SECRET: rotation.secret });
    await call(restarted.url, secrets);
    await call(stack.bffUrl, secrets);
    await call(restarted.url, secrets);

    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(signedBy).toEqual(['old', 'old', 'old', 'new', 'old', 'new']);
  });
});
