import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationSchema, NotificationsPageSchema } from '#shared/upstream/notifications.ts';
import { TEST_ADMIN_TOKEN, TEST_CONSUMER } from '../../upstream/travel-api/test-support/start-travel-api.ts';
import { travelApiWithIdentity } from '../../upstream/travel-api/test-support/travel-api-with-identity.ts';
import { readSseBody } from '../streams/read-sse-body.ts';
import { createTravelApiClient } from './travel-api-client.ts';
import type { TravelApi } from './travel-api.ts';

/**
 * The travel API client against the stand-in serving HTTPS with HTTP/2: it trusts the stand-in's local
 * authority (given as a CA, verification on), and carries many notification streams as streams of a
 * few connections.
 */

const STREAMS = 100;

const stack = travelApiWithIdentity({
  env: { TRAVEL_API_TLS: 'true', TRAVEL_API_SSE_HEARTBEAT_SECONDS: '0' },
});
let client: TravelApi;
/** TLS connections the stand-in accepted, and the protocol each agreed. */
const connections: string[] = [];

beforeAll(async () => {
  stack.api.app.server.on('secureConnection', (socket: { alpnProtocol?: string | false }) =>
    connections.push(String(socket.alpnProtocol)),
  );
  client = createTravelApiClient({
    baseUrl: stack.api.baseUrl,
    consumerSlug: TEST_CONSUMER.slug,
    consumerSecret: TEST_CONSUMER.secret,
    timeoutMs: 10_000,
    retryBudgetMs: 0,
    logger: pino({ level: 'silent' }),
    ca: await readFile(path.join(stack.api.dataDir, 'tls', 'ca.pem'), 'utf8'),
  });
});

afterAll(async () => {
  await client?.close();
});

async function raise(traveler: string, title: string) {
  const answer = await stack.api.app.inject({
    method: 'POST',
    url: '/admin/notifications',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: { traveler, eventType: 'GATE_CHANGED', severity: 'warning', title, body: `Body of ${title}` },
  });
  expect(answer.statusCode).toBe(201);
}

describe('the travel API client over HTTPS with HTTP/2', () => {
  it('makes a signed JSON call to the stand-in over h2, trusting its local authority', async () => {
    expect(stack.api.baseUrl).toMatch(/^https:/);
    const traveler = await stack.identity.newTraveler();
    await raise(traveler.sub, 'Boarding at 09:40');
    const page = await client.request({
      method: 'GET',
      path: '/v1/me/notifications',
      auth: { kind: 'bearer', token: traveler.token },
      requestId: crypto.randomUUID(),
      schema: NotificationsPageSchema,
    });
    expect(JSON.stringify(page)).toContain('Boarding at 09:40');
    expect(connections).toEqual(['h2']);
  });

  it(`multiplexes ${STREAMS} travelers' notification streams on a few connections`, async () => {
    const before = connections.length;
    const travelers = await Promise.all(Array.from({ length: STREAMS }, () => stack.identity.newTraveler()));
    const streams = await Promise.all(
      travelers.map((traveler) =>
        client.request({
          method: 'GET',
          path: '/v1/me/notifications/stream',
          auth: { kind: 'bearer', token: traveler.token },
          requestId: crypto.randomUUID(),
          stream: true,
        }),
      ),
    );
    const opened = connections.slice(before);
    expect(opened.length).toBeGreaterThanOrEqual(1);
    expect(opened.length).toBeLessThanOrEqual(3);
    expect(new Set(opened)).toEqual(new Set(['h2']));

    // Every stream is live and its own: a notification for the last traveler reaches the last stream.
    const last = travelers.at(-1);
    const lastStream = streams.at(-1);
    if (last === undefined || lastStream === undefined) throw new Error('no streams');
    let title: string | undefined;
    const received = readSseBody(lastStream, {
      onEvent: (message) => {
        if (message.event !== 'notification') return undefined;
        title = NotificationSchema.parse(JSON.parse(message.data)).title;
        return false;
      },
    });
    await raise(last.sub, 'Gate moved to B12');
    await received;
    expect(title).toBe('Gate moved to B12');
    for (const stream of streams) stream.destroy();
  });
});
