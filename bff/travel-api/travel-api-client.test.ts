import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CONSUMER_AUTH_REQUIRED_ENVELOPE, errorEnvelope } from '#shared/upstream/error-envelope.ts';
import { verifySignature, type ConsumerSecrets } from '#shared/upstream/verify-signature.ts';
import { AppError } from '../errors.ts';
import { createTravelApiClient, type TravelApiClientOptions } from './travel-api-client.ts';
import type { TravelApi } from './travel-api.ts';

const OLD_SECRET = 'old-consumer-secret-0000000001';
const NEW_SECRET = 'new-consumer-secret-0000000002';

interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  signatureValid: boolean;
  secretUsed: 'current' | 'previous' | 'none';
}

/**
 * A tiny travel API: verifies every signature over the raw bytes it received, records each request, and
 * answers with what the test scripted.
 */
class FakeTravelApi {
  readonly server: FastifyInstance = Fastify();
  readonly received: ReceivedRequest[] = [];
  secrets: ConsumerSecrets = { current: OLD_SECRET };
  clock: () => Date = () => new Date();
  script: Array<(reply: FastifyReply, request: ReceivedRequest) => unknown> = [];
  baseUrl = '';

  async start(): Promise<void> {
    this.server.removeAllContentTypeParsers();
    this.server.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    this.server.all('/*', async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = (name: string) => request.headers[name] as string | undefined;
      const verdict = verifySignature({
        headers: {
          consumer: header('service-consumer'),
          timestamp: header('service-timestamp'),
          signature: header('service-signature'),
        },
        method: request.method,
        path: request.url,
        body,
        secrets: header('service-consumer') === 'wayfare-web' ? this.secrets : undefined,
        now: this.clock(),
      });
      const received: ReceivedRequest = {
        method: request.method,
        url: request.url,
        headers: { ...request.headers },
        body,
        signatureValid: verdict.ok,
        secretUsed: verdict.ok ? (verdict.usedPrevious ? 'previous' : 'current') : 'none',
      };
      this.received.push(received);
      reply.header('date', this.clock().toUTCString());
      if (!verdict.ok) return reply.code(401).send(CONSUMER_AUTH_REQUIRED_ENVELOPE);
      const next = this.script.shift();
      if (next) return next(reply, received);
      return reply.send({ ok: true });
    });
    this.baseUrl = await this.server.listen({ host: '127.0.0.1', port: 0 });
  }
}

function captureLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const OkSchema = z.looseObject({ ok: z.literal(true) });

describe('travel API client', () => {
  let upstream: FakeTravelApi;
  let clients: TravelApi[];
  let logs: ReturnType<typeof captureLogs>;

  beforeEach(async () => {
    upstream = new FakeTravelApi();
    await upstream.start();
    clients = [];
    logs = captureLogs();
  });

  afterEach(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await upstream.server.close();
  });

  function client(overrides: Partial<TravelApiClientOptions> = {}): TravelApi {
    const created = createTravelApiClient({
      baseUrl: upstream.baseUrl,
      consumerSlug: 'wayfare-web',
      consumerSecret: OLD_SECRET,
      timeoutMs: 2_000,
      retryBudgetMs: 2_000,
      logger: logs.logger,
      ...overrides,
    });
    clients.push(created);
    return created;
  }

  /**
   * The next call reaches the travel API and is never answered: it stays open until the client lets go
   * of it. `state` says how far it got.
   */
  function holdNextCall() {
    let arrived!: () => void;
    const held = {
      arrived: new Promise<void>((resolve) => (arrived = resolve)),
      state: 'not arrived' as 'not arrived' | 'open' | 'closed unanswered',
    };
    upstream.script.push((reply) => {
      void reply.hijack();
      reply.raw.on('close', () => (held.state = 'closed unanswered'));
      held.state = 'open';
      arrived();
      return reply;
    });
    return held;
  }

  async function failure(promise: Promise<unknown>): Promise<AppError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }

  it('signs the exact bytes it sends, with the token, the request id and nothing of the browser', async () => {
    const body = { destination: 'Zürich — 東京', passengers: { adults: 2 } };
    const result = await client().request({
      method: 'POST',
      path: '/v1/flights/search',
      query: { page: 2, empty: undefined },
      body,
      auth: { kind: 'bearer', token: 'access-token-1' },
      requestId: 'req-123',
      schema: OkSchema,
    });

    expect(result).toEqual({ ok: true });
    const [received] = upstream.received;
    expect(received?.signatureValid).toBe(true);
    expect(received?.url).toBe('/v1/flights/search?page=2');
    expect(received?.body.toString('utf8')).toBe(JSON.stringify(body));
    expect(received?.headers.authorization).toBe('Bearer access-token-1');
    expect(received?.headers['x-request-id']).toBe('req-123');
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers.cookie).toBeUndefined();
  });

  it('sends no Authorization header for a call without a traveler', async () => {
    await client().request({
      method: 'GET',
      path: '/v1/app/update-check',
      auth: { kind: 'none' },
      requestId: 'r',
      schema: OkSchema,
    });
    expect(upstream.received[0]?.headers.authorization).toBeUndefined();
    expect(upstream.received[0]?.signatureValid).toBe(true);
  });

  it('retries a read after 503 RETRY_LATER, signing again with a fresh timestamp', async () => {
    let now = Date.now();
    upstream.script.push((reply) =>
      reply.code(503).send(errorEnvelope('SERVICE_UNAVAILABLE', { message: 'busy', retryAfterSeconds: 0 })),
    );
    const api = client({
      now: () => {
        now += 1_500;
        return now;
      },
    });
    upstream.clock = () => new Date(now);

    await api.request({
      method: 'GET',
      path: '/v1/profile',
      auth: { kind: 'bearer', token: 't' },
      requestId: 'r',
      schema: OkSchema,
    });

    expect(upstream.received).toHaveLength(2);
    const timestamps = upstream.received.map((request) => request.headers['service-timestamp']);
    expect(timestamps[0]).not.toBe(timestamps[1]);
    expect(upstream.received.every((request) => request.signatureValid)).toBe(true);
  });

  it('does not retry a POST after 503 RETRY_LATER and passes the envelope on', async () => {
    upstream.script.push((reply) =>
      reply.code(503).send(errorEnvelope('SERVICE_UNAVAILABLE', { message: 'busy', retryAfterSeconds: 7 })),
    );
    const error = await failure(
      client().request({
        method: 'POST',
        path: '/v1/flights/search',
        body: {},
        auth: { kind: 'bearer', token: 't' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(upstream.received).toHaveLength(1);
    expect(error.status).toBe(503);
    expect(error.envelope.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      recoveryAction: 'RETRY_LATER',
      retryAfterSeconds: 7,
    });
  });

  it('gives up on 503 RETRY_LATER when the wait does not fit the retry budget', async () => {
    upstream.script.push((reply) =>
      reply.code(503).send(errorEnvelope('SERVICE_UNAVAILABLE', { message: 'busy', retryAfterSeconds: 30 })),
    );
    const error = await failure(
      client().request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'bearer', token: 't' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(upstream.received).toHaveLength(1);
    expect(error.envelope.error.retryAfterSeconds).toBe(30);
  });

  it('retries at once when the travel API says RETRY_NOW, even for a POST', async () => {
    upstream.script.push((reply) =>
      reply.code(502).send(errorEnvelope('PROVIDER_ERROR', { message: 'blip', recoveryAction: 'RETRY_NOW' })),
    );
    const result = await client().request({
      method: 'POST',
      path: '/v1/flights/search',
      body: { a: 1 },
      auth: { kind: 'bearer', token: 't' },
      requestId: 'r',
      schema: OkSchema,
    });
    expect(result.ok).toBe(true);
    expect(upstream.received).toHaveLength(2);
  });

  it('refreshes the token once after 401 UNAUTHORIZED and retries with the new one', async () => {
    upstream.script.push((reply) =>
      reply.code(401).send(errorEnvelope('UNAUTHORIZED', { message: 'expired token' })),
    );
    let refreshes = 0;
    const result = await client().request({
      method: 'GET',
      path: '/v1/profile',
      auth: {
        kind: 'bearer',
        token: 'stale',
        refresh: () => {
          refreshes += 1;
          return Promise.resolve('fresh');
        },
      },
      requestId: 'r',
      schema: OkSchema,
    });
    expect(result.ok).toBe(true);
    expect(refreshes).toBe(1);
    expect(upstream.received.map((request) => request.headers.authorization)).toEqual([
      'Bearer stale',
      'Bearer fresh',
    ]);
  });

  it('passes a second 401 UNAUTHORIZED on after one refresh', async () => {
    const unauthorized = (reply: FastifyReply) =>
      reply.code(401).send(errorEnvelope('UNAUTHORIZED', { message: 'no' }));
    upstream.script.push(unauthorized, unauthorized);
    const error = await failure(
      client().request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'bearer', token: 'stale', refresh: () => Promise.resolve('fresh') },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(error.status).toBe(401);
    expect(error.code).toBe('UNAUTHORIZED');
    expect(upstream.received).toHaveLength(2);
  });

  it('diagnoses a rejected signature as clock skew when the clocks disagree, and never retries it', async () => {
    const api = client({ now: () => Date.now() + 10 * 60_000 });
    const error = await failure(
      api.request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'bearer', token: 't' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(upstream.received).toHaveLength(1);
    expect(error.code).toBe('CONSUMER_AUTH_REQUIRED');
    expect(error.status).toBe(502);
    const fault = logs.lines.find((line) => line.configurationFault === 'consumer-signature');
    expect(fault?.msg).toMatch(/clock skew of 60\d s/);
    expect(fault?.skewSeconds).toBeGreaterThanOrEqual(599);
  });

  it('diagnoses a rejected signature as a wrong or rotated secret when the clocks agree', async () => {
    const api = client({ consumerSecret: 'some-other-secret-000000000003' });
    await failure(
      api.request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'bearer', token: 't' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    const fault = logs.lines.find((line) => line.configurationFault === 'consumer-signature');
    expect(fault?.msg).toContain('secret rejected (wrong or rotated secret)');
    expect(JSON.stringify(logs.lines)).not.toContain('some-other-secret');
  });

  it('turns an unreachable travel API into 502 BAD_GATEWAY after retrying a read', async () => {
    const api = client({ baseUrl: 'http://127.0.0.1:9' });
    const error = await failure(
      api.request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'none' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(error.status).toBe(502);
    expect(error.envelope.error).toMatchObject({
      code: 'BAD_GATEWAY',
      recoveryAction: 'RETRY_LATER',
      details: [],
    });
    const attempts = logs.lines.filter((line) => line.msg === 'travel API call failed before a response');
    expect(attempts).toHaveLength(3);
  });

  it('turns a slow travel API into 504 GATEWAY_TIMEOUT without retrying', async () => {
    // The first call is never answered; a second one would be answered at once.
    holdNextCall();
    const error = await failure(
      client({ timeoutMs: 100 }).request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'none' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(error.status).toBe(504);
    expect(error.code).toBe('GATEWAY_TIMEOUT');
    const attempts = logs.lines.filter((line) => line.msg === 'travel API call failed before a response');
    expect(attempts.map((line) => line.failure)).toEqual(['timeout']);
    expect(upstream.received.length).toBeLessThanOrEqual(1);
  });

  it('turns an answer outside the contract into 502 BAD_GATEWAY and logs the broken fields', async () => {
    upstream.script.push((reply) => reply.send({ ok: 'yes' }));
    const error = await failure(
      client().request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'none' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(error.status).toBe(502);
    expect(error.code).toBe('BAD_GATEWAY');
    const line = logs.lines.find((entry) => entry.msg === 'travel API answer breaks the contract');
    expect(line?.issues).toEqual([expect.objectContaining({ path: 'ok' })]);
  });

  it('turns an error page that is not an envelope into 502 BAD_GATEWAY', async () => {
    upstream.script.push((reply) => reply.code(500).type('text/html').send('<h1>Internal Server Error</h1>'));
    const error = await failure(
      client().request({
        method: 'POST',
        path: '/v1/x',
        body: {},
        auth: { kind: 'none' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(error.status).toBe(502);
    expect(error.envelope.error.message).not.toContain('Internal Server Error');
  });

  it('passes an upstream envelope on with its status, code and retry hint', async () => {
    upstream.script.push((reply) =>
      reply
        .code(429)
        .header('retry-after', '12')
        .send({
          error: {
            code: 'RATE_LIMIT_EXCEEDED',
            message: 'slow down',
            details: [],
            recoveryAction: 'RETRY_LATER',
            retryAfterSeconds: null,
          },
        }),
    );
    const error = await failure(
      client().request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'none' },
        requestId: 'r',
        schema: OkSchema,
      }),
    );
    expect(error.status).toBe(429);
    expect(error.envelope.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: 12 });
  });

  it('opens a signed event stream and hands back only its body, none of its headers', async () => {
    upstream.script.push((reply) =>
      reply
        .header('content-type', 'text/event-stream')
        .header('set-cookie', 'upstream=1')
        .send('event: done\ndata: {}\n\n'),
    );
    const body = await client().request({
      method: 'POST',
      path: '/v1/stays/fares',
      body: { property: null },
      auth: { kind: 'guest', token: 'wgs_guest' },
      requestId: 'r',
      stream: true,
      lastEventId: '41',
    });
    expect(body).toBeInstanceOf(Readable);
    expect(await text(body)).toBe('event: done\ndata: {}\n\n');
    const [received] = upstream.received;
    expect(received?.signatureValid).toBe(true);
    expect(received?.headers.accept).toBe('text/event-stream');
    expect(received?.headers['last-event-id']).toBe('41');
    expect(received?.headers.authorization).toBe('Bearer wgs_guest');
  });

  it('lets go of the upstream connection when the stream’s reader cancels it', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    upstream.script.push((reply) => {
      void reply.hijack();
      reply.raw.on('close', upstreamClosed);
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.write('event: fare\ndata: {}\n\n');
      return reply;
    });
    const body = await client().request({
      method: 'GET',
      path: '/v1/me/notifications/stream',
      auth: { kind: 'bearer', token: 't' },
      requestId: 'r',
      stream: true,
    });
    const [first] = (await once(body, 'data')) as [Buffer];
    expect(first.toString('utf8')).toContain('event: fare');
    body.destroy();
    await closed;
  });

  it('rejects a stream that fails before it opens with the upstream envelope', async () => {
    upstream.script.push((reply) =>
      reply.code(410).send(errorEnvelope('OFFER_EXPIRED', { message: 'gone' })),
    );
    const error = await failure(
      client().request({
        method: 'POST',
        path: '/v1/stays/fares',
        body: {},
        auth: { kind: 'none' },
        requestId: 'r',
        stream: true,
      }),
    );
    expect(error.status).toBe(410);
    expect(error.envelope.error).toMatchObject({ code: 'OFFER_EXPIRED', recoveryAction: 'CHANGE_SELECTION' });
  });

  it('aborts the upstream call when the caller gives up', async () => {
    const held = holdNextCall();
    const controller = new AbortController();
    // A deadline far away, so that only the caller ends the call.
    const pending = client({ timeoutMs: 600_000 }).request({
      method: 'GET',
      path: '/v1/profile',
      auth: { kind: 'none' },
      requestId: 'r',
      signal: controller.signal,
      schema: OkSchema,
    });
    await held.arrived;
    controller.abort();
    const error = await failure(pending);
    expect(error.code).toBe('REQUEST_ABORTED');
    await vi.waitFor(() => expect(held.state, 'the travel API call').toBe('closed unanswered'));
    expect(upstream.received).toHaveLength(1);
  });

  it('rotates from the old secret to the new one without a failed call', async () => {
    let now = Date.now();
    upstream.clock = () => new Date(now);
    const api = client({ consumerSecret: OLD_SECRET, consumerNextSecret: NEW_SECRET, now: () => now });
    const call = () =>
      api.request({
        method: 'GET',
        path: '/v1/profile',
        auth: { kind: 'bearer', token: 't' },
        requestId: 'r',
        schema: OkSchema,
      });

    await call(); // before the upstream rotation: the next secret is rejected once, the old one works and stays
    await call();
    upstream.secrets = { current: NEW_SECRET, previous: { secret: OLD_SECRET, rotatedAt: new Date(now) } };
    await call(); // during the 24-hour overlap the old secret still verifies
    now += 24 * 60 * 60 * 1000 + 1000;
    await call(); // afterwards the old one is rejected and the new one takes over
    await call();

    expect(upstream.received.map((request) => request.secretUsed)).toEqual([
      'none',
      'current',
      'current',
      'previous',
      'none',
      'current',
      'current',
    ]);
    expect(logs.lines.some((line) => line.configurationFault)).toBe(false);
  });
});
