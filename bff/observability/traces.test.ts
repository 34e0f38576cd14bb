import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayStack } from '../test-support/gateway-stack.ts';
import { TestPushService } from '../test-support/test-push-service.ts';

/**
 * One trace per traveler action, exported over OTLP/HTTP to a receiver this test runs. The exporter is
 * chosen when the process's telemetry starts, so this file runs in a process of its own (vitest.config.ts,
 * ISOLATED) with OTEL_EXPORTER_OTLP_ENDPOINT set before the app is loaded.
 */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

const received: ExportedSpan[] = [];
const receivedBodies: string[] = [];
const receiver: Server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    receivedBodies.push(text);
    const body = JSON.parse(text) as {
      resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
    };
    for (const resource of body.resourceSpans)
      for (const scope of resource.scopeSpans) received.push(...scope.spans);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';

/**
 * A request as a browser sends it, with the traceparent it chose: through node:http, which this process
 * does not trace (its fetch is traced, and would start a trace of its own).
 */
function browserRequest(
  url: string,
  { method, headers, body }: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
const hex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');

let stack: GatewayStack;
let headers: Record<string, string>;
const pushService = new TestPushService();
let subscription: ReturnType<TestPushService['subscribe']>;
let pushForwarder: Server;
let bffUrl = '';

/**
 * Starting this file's stack (the identity platform, the travel API, the BFF, a push service and a hop,
 * with every span exported as it ends) and signing in took 28 s of the 30 s hook timeout on a loaded
 * two-core machine: a wait for those servers, not a measure of them.
 */
const STACK_START_MS = 90_000;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
  await pushService.start();
  const { context, propagation, ROOT_CONTEXT } = await import('@opentelemetry/api');
  const { startGatewayStack } = await import('../test-support/gateway-stack.ts');
  const { APP_ORIGIN } = await import('../test-support/sign-in-stack.ts');
  // The travel API's push channel reaches the BFF through this hop once the BFF exists; the hop passes
  // the call's trace on as a proxy would.
  pushForwarder = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const forwarded = Object.fromEntries(
        Object.entries(request.headers).filter(
          ([name]) => !['host', 'connection', 'content-length', 'traceparent'].includes(name),
        ),
      ) as Record<string, string>;
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      void context
        .with(parent, () =>
          fetch(`${bffUrl}${request.url ?? '/'}`, {
            method: 'POST',
            headers: forwarded,
            body: Buffer.concat(chunks),
          }),
        )
        .then(async (answer) =>
          response.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer())),
        )
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => pushForwarder.listen(0, '127.0.0.1', resolve));
  const forwarderUrl = `http://127.0.0.1:${(pushForwarder.address() as AddressInfo).port}`;
  stack = await startGatewayStack({
    travelApiEnv: { TRAVEL_API_PUSH_WEBHOOK_URL: `${forwarderUrl}/webhooks/travel-api/push` },
    bffEnv: { ...pushService.bffEnv, METRICS_PORT: '0' },
  });
  bffUrl = stack.bffUrl;
  const browser = await stack.signIn();
  const name = stack.app.sessions.cookie.name;
  headers = { cookie: `${name}=${browser.cookie(APP_ORIGIN, name)}`, 'x-requested-with': 'wayfare' };
}, STACK_START_MS);

afterAll(async () => {
  await stack.close();
  pushForwarder.closeAllConnections();
  await new Promise((resolve) => pushForwarder.close(resolve));
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await pushService.close();
});

/** The spans of one trace exported so far, once `names` are all among them. */
async function spansOf(traceId: string, names: string[]): Promise<ExportedSpan[]> {
  let spans: ExportedSpan[] = [];
  await expect
    .poll(async () => {
      await stack.app.telemetry.flush();
      spans = received.filter((span) => span.traceId === traceId);
      return names.filter((name) => !spans.some((span) => span.name === name));
    })
    .toEqual([]);
  return spans;
}

const attribute = (span: ExportedSpan, key: string) =>
  Object.values(span.attributes.find((one) => one.key === key)?.value ?? {})[0];

describe('one trace per traveler action', () => {
  it('continues the browser’s trace through the BFF to the travel API, and logs it', async () => {
    const traceId = hex(16);
    const browserSpanId = hex(8);
    const answer = await browserRequest(`${stack.bffUrl}/api/flights/search`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${browserSpanId}-01`,
      },
      body: JSON.stringify({
        itinerary: [
          {
            origin: 'ZRH',
            destination: 'JFK',
            date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
          },
        ],
        passengers: { adults: 1 },
        cabinClass: 'economy',
      }),
    });
    expect(answer.status).toBe(200);

    const spans = await spansOf(traceId, ['POST /api/flights/search', 'POST', 'POST /v1/flights/search']);
    const bff = spans.find((span) => span.name === 'POST /api/flights/search') as ExportedSpan;
    const call = spans.find(
      (span) => span.name === 'POST' && span.parentSpanId === bff.spanId,
    ) as ExportedSpan;
    const travelApi = spans.find((span) => span.name === 'POST /v1/flights/search') as ExportedSpan;
    // The browser's span, the BFF's request, its signed call, the travel API's request: parent to child
    // (through the test's recording hop between the BFF and the travel API, a call of its own).
    expect(bff.parentSpanId).toBe(browserSpanId);
    expect(call.parentSpanId).toBe(bff.spanId);
    const hop = spans.find((span) => span.spanId === travelApi.parentSpanId);
    expect(hop?.parentSpanId).toBe(call.spanId);
    expect(attribute(call, 'url.full')).toMatch(/\/v1\/flights\/search$/);
    expect(attribute(bff, 'http.route')).toBe('/api/flights/search');

    const logged = stack.bffLogs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.trace_id === traceId);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((line) => /^[0-9a-f]{16}$/.test(String(line.span_id)))).toBe(true);
    // One line for the request, when it ends: what an operator reads, with the ids to find the rest.
    const requestLines = logged.filter((line) => line.msg === 'request');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      level: 30,
      method: 'POST',
      route: '/api/flights/search',
      status: 200,
      trace_id: traceId,
    });
    expect(typeof requestLines[0]?.durationMs).toBe('number');
    expect(String(requestLines[0]?.requestId)).toMatch(/^[0-9a-f-]{36}$/);
    expect(stack.bffLogs.some((line) => /incoming request|request completed/.test(line))).toBe(false);
  });

  it('follows a notification from the simulator through the stream, the hub, the webhook and the push decision', async () => {
    const { BrowserStream } = await import('../test-support/browser-stream.ts');
    const tab = await BrowserStream.open(
      `${stack.bffUrl}/api/notifications/stream?tab=trace-tab-1&visible=1`,
      {
        headers,
      },
    );
    await tab.next((event) => event.event === 'status' && event.data.includes('"live"'));

    const traceId = hex(16);
    const operatorSpanId = hex(8);
    const response = await browserRequest(`${stack.travelApiUrl}/admin/notifications`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer test-admin-token-0000000000000001',
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${operatorSpanId}-01`,
      },
      body: JSON.stringify({
        traveler: ALEX,
        eventType: 'SEGMENT_DELAYED',
        severity: 'warning',
        title: 'Delayed: traced',
        body: 'Your flight leaves later.',
      }),
    });
    expect(response.status).toBe(201);
    const { notification } = JSON.parse(response.body) as { notification: { id: string } };
    await tab.next((event) => event.id === notification.id);
    tab.abort();
    // The stream's open and its end, with the reason and how long it lasted.
    await expect
      .poll(() =>
        stack.bffLogs
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.stream === '/api/notifications/stream')
          .map((line) => [line.msg, line.reason, typeof line.durationMs]),
      )
      .toEqual([
        ['stream open', undefined, 'undefined'],
        ['stream ended', 'client-gone', 'number'],
      ]);

    const spans = await spansOf(traceId, [
      'notification dispatch',
      'notification received',
      'notification live delivery',
      'POST /webhooks/travel-api/push',
      'push decision',
    ]);
    const dispatch = spans.find((span) => span.name === 'notification dispatch') as ExportedSpan;
    const receivedSpan = spans.find((span) => span.name === 'notification received') as ExportedSpan;
    expect(receivedSpan.parentSpanId).toBe(dispatch.spanId);
    const decision = spans.find((span) => span.name === 'push decision') as ExportedSpan;
    // Shown live first, so the push is suppressed; the same trace says both.
    expect(attribute(decision, 'wayfare.push.outcome')).toBe('suppressed-live');
    const deliveries = spans.filter((span) => span.name === 'notification live delivery');
    expect(deliveries.some((span) => attribute(span, 'wayfare.notification.written') === true)).toBe(true);
  });

  it('names only the push service’s host in the span of a push send, and sends it no trace context', async () => {
    subscription = pushService.subscribe();
    const subscribed = await browserRequest(`${stack.bffUrl}/api/push/subscriptions`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(subscription),
    });
    expect(subscribed.status).toBe(200);

    // No tab is open: the notification goes out by push.
    const traceId = hex(16);
    const response = await browserRequest(`${stack.travelApiUrl}/admin/notifications`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer test-admin-token-0000000000000001',
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${hex(8)}-01`,
      },
      body: JSON.stringify({
        traveler: ALEX,
        eventType: 'GATE_CHANGED',
        severity: 'info',
        title: 'Gate changed: traced',
        body: 'Your flight leaves from another gate.',
      }),
    });
    expect(response.status).toBe(201);
    await expect.poll(() => pushService.received.length).toBe(1);
    expect(pushService.received[0]?.headers.traceparent).toBeUndefined();

    const spans = await spansOf(traceId, ['push decision', 'push send']);
    const send = spans.find((span) => span.name === 'push send') as ExportedSpan;
    const decision = spans.find((span) => span.name === 'push decision') as ExportedSpan;
    expect(send.parentSpanId).toBe(decision.spanId);
    expect(attribute(send, 'server.address')).toBe('127.0.0.1');
    expect(attribute(send, 'http.response.status_code')).toBe(201);
    expect(attribute(decision, 'wayfare.push.outcome')).toBe('sent');
  });

  it('exports no secret, token, cookie, email or card number in a span or a metric label after a booking', async () => {
    // The session books: its search, the price check, the payment methods and the booking are exported too.
    const call = (method: string, pathname: string, body?: unknown, extra: Record<string, string> = {}) =>
      browserRequest(`${stack.bffUrl}${pathname}`, {
        method,
        headers: {
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          traceparent: `00-${hex(16)}-${hex(8)}-01`,
          ...extra,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const search = await call('POST', '/api/flights/search', {
      itinerary: [
        {
          origin: 'ZRH',
          destination: 'LHR',
          date: new Date(Date.now() + 210 * 86_400_000).toISOString().slice(0, 10),
        },
      ],
      passengers: { adults: 1 },
      cabinClass: 'economy',
    });
    expect(search.status).toBe(200);
    const [offer] = (JSON.parse(search.body) as { offers: { offerId: string; totalPrice: unknown }[] })
      .offers;
    const cards = await call('GET', '/api/payment-methods?bookingProfile=false');
    expect(cards.status).toBe(200);
    const [card] = (JSON.parse(cards.body) as { items: { paymentMethodId: string }[] }).items;
    expect((await call('POST', `/api/offers/${offer?.offerId}/price-check`)).status).toBe(200);
    const bookingTraceId = hex(16);
    const booked = await call(
      'POST',
      '/api/bookings',
      {
        offerId: offer?.offerId,
        price: offer?.totalPrice,
        paymentMethodId: card?.paymentMethodId,
        traveler: { name: 'Alex Morgan', email: 'alex@wayfare.example', phone: '+41 44 000 00 00' },
      },
      { 'idempotency-key': crypto.randomUUID(), traceparent: `00-${bookingTraceId}-${hex(8)}-01` },
    );
    expect(booked.status).toBe(201);

    // Everything the session exported: every span of every batch, and both servers' metrics.
    const metricsText = [
      await (await fetch(`http://127.0.0.1:${stack.app.metricsPort()}/metrics`)).text(),
      await (await fetch(`${stack.travelApiUrl}/metrics`)).text(),
    ];
    expect(metricsText[0]).toMatch(/wayfare_bookings_outcomes_total\{[^}]*code="BOOKED"/);
    await spansOf(bookingTraceId, ['POST /api/bookings', 'POST /v1/bookings']);
    const exported = receivedBodies.join('\n');
    const [stored] = await stack.app.sessions.store.findBySubject(ALEX);
    const { config } = stack.app;
    const secrets = {
      'session cookie': headers.cookie?.split('=')[1],
      'access token': stored?.accessToken,
      'refresh token': stored?.refreshToken,
      'consumer secret': config.CONSUMER_SECRET,
      'OIDC client secret': config.OIDC_CLIENT_SECRET,
      'push webhook secret': config.PUSH_WEBHOOK_SECRET,
      'admin token': config.TRAVEL_API_ADMIN_TOKEN,
      password: 'alex-demo',
      email: 'alex@wayfare.example',
      // A push subscription's endpoint is a credential (whoever has it can send to the device), as are its keys.
      'push endpoint': new URL(subscription.endpoint).pathname,
      'push auth key': subscription.keys.auth,
      'push public key': subscription.keys.p256dh,
    };
    for (const [what, secret] of Object.entries(secrets)) {
      expect(secret, what).toMatch(/\S{8,}/);
      expect(exported.includes(secret as string), `${what} in a span`).toBe(false);
      for (const text of metricsText)
        expect(text.includes(secret as string), `${what} in a metric`).toBe(false);
    }
    // No header is recorded, and no exported text (span and event names, attribute values, resource
    // attributes, metric label values) is a bearer or signed token (the ID token is one), an email or a
    // card number.
    expect(exported).not.toMatch(/"http\.(request|response)\.header\./);
    const texts = [
      ...receivedBodies.flatMap((body) => exportedStrings(JSON.parse(body))),
      ...metricsText.flatMap(labelValues),
    ];
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      expect(text).not.toMatch(/Bearer |eyJ[\w-]{8,}\.[\w-]{8,}/);
      expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[a-z]{2,}/i);
      // An id (a UUID) is no card number, though its digit groups can read like one ("4209-9965-205450").
      const withoutIds = text.replace(
        /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
        '<id>',
      );
      expect(withoutIds).not.toMatch(/(?<!\d)(?:\d[ -]?){13,19}(?!\d)/);
    }
  });
});

/** Ids and times of an OTLP export: hex and nanoseconds, no text of the traveler's. */
const OTLP_IDS_AND_TIMES = new Set([
  'traceId',
  'spanId',
  'parentSpanId',
  'startTimeUnixNano',
  'endTimeUnixNano',
  'timeUnixNano',
]);

/** Every string of an OTLP/JSON export but its ids and times: names, attribute values, event names. */
function exportedStrings(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return OTLP_IDS_AND_TIMES.has(key) ? [] : [value];
  if (Array.isArray(value)) return value.flatMap((item) => exportedStrings(item, key));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([name, item]) => exportedStrings(item, name));
  return [];
}

/** The label values of a Prometheus text exposition. */
function labelValues(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .flatMap((line) => [...line.matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] ?? ''));
}
