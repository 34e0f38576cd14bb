import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserStream } from '../test-support/browser-stream.ts';
import { APP_ORIGIN, type TestBrowser } from '../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from '../test-support/gateway-stack.ts';
import { samples, total } from '../test-support/prometheus-text.ts';

/** The demo traveler Alex (the identity platform's subject, the travel API's traveler). */
const ALEX_TRAVELER_ID = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';

const flightSearch = {
  itinerary: [
    {
      origin: 'ZRH',
      destination: 'JFK',
      date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
    },
  ],
  passengers: { adults: 1 },
  cabinClass: 'economy',
};

describe('metrics in Prometheus text format', () => {
  let stack: GatewayStack;
  let alex: TestBrowser;
  let bffMetricsUrl: string;

  beforeAll(async () => {
    stack = await startGatewayStack({ bffEnv: { METRICS_PORT: '0', RATE_LIMIT_SEARCH_PER_MINUTE: '2' } });
    alex = await stack.signIn();
    bffMetricsUrl = `http://127.0.0.1:${stack.app.metricsPort()}/metrics`;
  });

  afterAll(async () => {
    await stack.close();
  });

  const bffMetrics = async () => (await fetch(bffMetricsUrl)).text();
  const travelApiMetrics = async () => (await fetch(`${stack.travelApiUrl}/metrics`)).text();
  const api = (method: string, path: string, body?: unknown) =>
    alex.fetch(path, {
      method,
      headers: {
        'x-requested-with': 'wayfare',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('serves the BFF’s metrics on their own port, not on the app’s', async () => {
    const own = await fetch(bffMetricsUrl);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toMatch(/^text\/plain/);
    const app = await fetch(`${stack.bffUrl}/metrics`);
    expect(await app.text()).not.toContain('# TYPE');
  });

  it('counts requests by route template on the BFF and the travel API, and the BFF’s upstream calls', async () => {
    const route = { http_route: '/api/flights/search', http_request_method: 'POST' };
    const before = total(await bffMetrics(), 'http_server_request_duration_seconds_count', route);
    const upstreamBefore = total(await travelApiMetrics(), 'http_server_request_duration_seconds_count', {
      http_route: '/v1/flights/search',
    });
    expect((await api('POST', '/api/flights/search', flightSearch)).status).toBe(200);

    const bff = await bffMetrics();
    expect(total(bff, 'http_server_request_duration_seconds_count', route)).toBe(before + 1);
    expect(
      total(bff, 'http_server_request_duration_seconds_count', {
        ...route,
        http_response_status_code: '200',
      }),
    ).toBeGreaterThan(0);
    // Route templates only: never a raw path with an id or a query.
    for (const sample of samples(bff).filter((one) => one.labels.http_route !== undefined))
      expect(sample.labels.http_route).not.toMatch(/\?|[0-9a-f]{8}-[0-9a-f]{4}/);
    expect(
      total(bff, 'http_client_request_duration_seconds_count', { http_request_method: 'POST' }),
    ).toBeGreaterThan(0);
    const upstream = await travelApiMetrics();
    expect(
      total(upstream, 'http_server_request_duration_seconds_count', { http_route: '/v1/flights/search' }),
    ).toBe(upstreamBefore + 1);
  });

  it('times the travel API calls of unrecorded traces into the undici instrumentation’s own metric, with its labels', async () => {
    // No collector: the travel API client times its calls itself; the identity calls of the sign-in
    // were timed by the instrumentation. Both must be one metric, labelled alike.
    expect((await api('GET', '/api/trips')).status).toBe(200);
    const text = await bffMetrics();
    expect(text.match(/^# TYPE http_client_request_duration_seconds histogram$/gm)).toHaveLength(1);
    const calls = samples(text).filter((one) => one.name === 'http_client_request_duration_seconds_count');
    const tapPort = new URL(stack.tap.url).port;
    const travelApi = calls.find(
      (one) => one.labels.server_port === tapPort && one.labels.http_request_method === 'GET',
    );
    expect(travelApi?.labels).toMatchObject({
      http_response_status_code: '200',
      server_address: '127.0.0.1',
      url_scheme: 'http',
      network_protocol_version: '1.1',
    });
    const identity = calls.find((one) => one.labels.server_port === new URL(stack.identity.issuer).port);
    expect(identity).toBeDefined();
    // A call the travel API refuses is labelled with its status as its error type, as the instrumentation does.
    expect((await api('GET', `/api/trips/${crypto.randomUUID()}`)).status).toBe(404);
    const refused = samples(await bffMetrics()).find(
      (one) =>
        one.name === 'http_client_request_duration_seconds_count' &&
        one.labels.server_port === tapPort &&
        one.labels.http_response_status_code === '404',
    );
    expect(refused?.labels).toMatchObject({ http_request_method: 'GET', error_type: '404' });
    const { server_port: _travelApiPort, ...travelApiLabels } = travelApi?.labels ?? {};
    const { server_port: _identityPort, ...identityLabels } = identity?.labels ?? {};
    expect(Object.keys(travelApiLabels).sort()).toEqual(Object.keys(identityLabels).sort());
  });

  it('counts rate-limit refusals by route and booking outcomes by code', async () => {
    const refusalsBefore = total(await bffMetrics(), 'wayfare_rate_limit_refusals_total', {
      http_route: '/api/flights/search',
    });
    let refused = 0;
    for (let attempt = 0; attempt < 4 && refused === 0; attempt += 1) {
      if ((await api('POST', '/api/flights/search', flightSearch)).status === 429) refused += 1;
    }
    expect(refused).toBe(1);
    const bookingBefore = total(await bffMetrics(), 'wayfare_bookings_outcomes_total', {
      code: 'VALIDATION_ERROR',
    });
    expect((await api('POST', '/api/bookings', {})).status).toBe(422);

    const after = await bffMetrics();
    expect(total(after, 'wayfare_rate_limit_refusals_total', { http_route: '/api/flights/search' })).toBe(
      refusalsBefore + 1,
    );
    expect(total(after, 'wayfare_bookings_outcomes_total', { code: 'VALIDATION_ERROR' })).toBe(
      bookingBefore + 1,
    );
  });

  it('labels with fixed values only: no id, secret, token, email or raw path', async () => {
    const { config } = stack.app;
    const secrets = [config.CONSUMER_SECRET, config.OIDC_CLIENT_SECRET, config.PUSH_WEBHOOK_SECRET];
    const texts = [await bffMetrics(), await travelApiMetrics()];
    for (const text of texts) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      const values = samples(text).flatMap((sample) => Object.values(sample.labels));
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) {
        expect(value).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-|Bearer |eyJ[\w-]{10,}|\w@\w|\?/i);
        expect(value.length).toBeLessThan(80);
      }
    }
  });

  it('shows a notification stream open, the upstream stream its hub holds, its lease and its catch-up', async () => {
    const kind = { kind: '/api/notifications/stream' };
    const catchUpsBefore = total(await bffMetrics(), 'wayfare_notifications_catch_up_runs_total');
    const cookieName = stack.app.sessions.cookie.name;
    const tab = await BrowserStream.open(
      `${stack.bffUrl}/api/notifications/stream?tab=metrics-tab-1&visible=1`,
      {
        headers: {
          cookie: `${cookieName}=${alex.cookie(APP_ORIGIN, cookieName)}`,
          accept: 'text/event-stream',
          'x-requested-with': 'wayfare',
        },
      },
    );
    expect(tab.response.status).toBe(200);
    await expect
      .poll(async () => {
        const now = await bffMetrics();
        return [
          total(now, 'wayfare_browser_streams_open', kind),
          total(now, 'wayfare_notification_upstream_streams_held'),
          total(now, 'wayfare_hub_leases_held'),
          total(now, 'wayfare_notifications_catch_up_runs_total') > catchUpsBefore,
        ];
      })
      .toEqual([1, 1, 1, true]);

    // Deliveries are counted by path, every path reported from the start; a live one moves `live` by one.
    const delivered = (text: string, path: string) =>
      total(text, 'wayfare_notifications_delivered_total', { path });
    const before = await bffMetrics();
    for (const path of ['live', 'push', 'suppressed', 'duplicate_dropped'])
      expect(
        samples(before).some(
          (one) => one.name === 'wayfare_notifications_delivered_total' && one.labels.path === path,
        ),
      ).toBe(true);
    await tab.next((event) => event.event === 'status' && event.data.includes('"live"'));
    const created = await stack.admin('POST', '/admin/notifications', {
      traveler: ALEX_TRAVELER_ID,
      eventType: 'SEGMENT_DELAYED',
      severity: 'warning',
      title: 'Delayed: counted',
      body: 'Your flight leaves later.',
    });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { notification: { id: string } }).notification;
    await tab.next((event) => event.id === id);
    await expect.poll(async () => delivered(await bffMetrics(), 'live')).toBe(delivered(before, 'live') + 1);
    tab.abort();
    await expect.poll(async () => total(await bffMetrics(), 'wayfare_browser_streams_open', kind)).toBe(0);
  });
});

describe('trace ids without a collector', () => {
  let stack: GatewayStack;

  beforeAll(async () => {
    stack = await startGatewayStack();
  });

  afterAll(async () => {
    await stack.close();
  });

  it('records no span, yet the request’s log line and its travel API call carry the browser’s trace id', async () => {
    const alex = await stack.signIn();
    const cookieName = stack.app.sessions.cookie.name;
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    // Through node:http: this process's fetch is instrumented and would send a traceparent of its own.
    const status = await new Promise<number>((resolve, reject) => {
      const sent = httpRequest(
        `${stack.bffUrl}/api/trips`,
        {
          headers: {
            cookie: `${cookieName}=${alex.cookie(APP_ORIGIN, cookieName)}`,
            'x-requested-with': 'wayfare',
            traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      sent.on('error', reject);
      sent.end();
    });
    expect(status).toBe(200);
    const line = stack.bffLogs
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((logged) => logged.msg === 'request' && logged.route === '/api/trips');
    expect(line).toMatchObject({ trace_id: traceId });
    const call = stack.tap.seen.find((tapped) => tapped.url.startsWith('/v1/trips/page'));
    // The same trace, a span id of the BFF's own, and "not sampled": nothing was recorded to export.
    expect(call?.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    expect(call?.headers.traceparent).not.toContain('00f067aa0ba902b7');
    // The span id passed on is the one the request's log line carries.
    expect(String(call?.headers.traceparent).split('-')[2]).toBe(line?.span_id);
  });
});
