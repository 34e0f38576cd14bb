import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSseStream, type SseMessage } from '#shared/sse.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import {
  NotificationSchema,
  NotificationsPageSchema,
  PushWebhookPayloadSchema,
} from '#shared/upstream/notifications.ts';
import { SegmentDetailsSchema, type SegmentDetails } from '#shared/upstream/trips.ts';
import { adminFetch } from '../notifications/test-support/admin-fetch.ts';
import { eventually } from '../notifications/test-support/eventually.ts';
import { startPushReceiver, type PushReceiver } from '../notifications/test-support/start-push-receiver.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { TEST_ADMIN_TOKEN } from '../test-support/start-travel-api.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';
import { ensureLocalCertificates } from '../local-certificates.ts';
import { DemoEvents } from './demo-events.ts';

const PUSH_SECRET = 'test-push-webhook-secret-0000001';

let receiver: PushReceiver;
beforeAll(async () => {
  receiver = await startPushReceiver(PUSH_SECRET);
});
afterAll(async () => {
  await receiver?.close();
});

const stack = travelApiWithIdentity({
  env: () => ({ TRAVEL_API_PUSH_WEBHOOK_URL: receiver.url, TRAVEL_API_PUSH_WEBHOOK_SECRET: PUSH_SECRET }),
});

const newTraveler = () => stack.identity.newTraveler();

const admin = (method: string, url: string, json?: unknown, token = TEST_ADMIN_TOKEN, target = stack.api) =>
  adminFetch(target.baseUrl, method, url, json, token);

async function simulate(body: Record<string, unknown>) {
  const response = await admin('POST', '/admin/simulate', body);
  expect(response.status).toBe(201);
  const json = (await response.json()) as {
    notification: unknown;
    segment: unknown;
    deliveredLive: number;
    pushed: boolean;
  };
  return {
    notification: NotificationSchema.parse(json.notification),
    segment: SegmentDetailsSchema.parse(json.segment),
    deliveredLive: json.deliveredLive,
    pushed: json.pushed,
  };
}

async function segmentRead(token: string, segment: SegmentDetails): Promise<SegmentDetails> {
  const response = await signedFetch(stack.api.baseUrl, {
    token,
    path: `/v1/trips/${segment.tripId}/segments/${segment.segmentId}`,
  });
  expect(response.status).toBe(200);
  return SegmentDetailsSchema.parse(await response.json());
}

const minutesBetween = (later: string, earlier: string) => (Date.parse(later) - Date.parse(earlier)) / 60_000;

describe('POST /admin/simulate', () => {
  it('delays the next flight: the segment read shows the new time, the stream gets it live, the push goes out signed', async () => {
    const { sub, token } = await newTraveler();
    const stream = await signedFetch(stack.api.baseUrl, { token, path: '/v1/me/notifications/stream' });
    const messages: SseMessage[] = [];
    const controller = new AbortController();
    const reading = (async () => {
      try {
        for await (const message of readSseStream(stream.body as ReadableStream<Uint8Array>, {
          signal: controller.signal,
        })) {
          messages.push(message);
        }
      } catch {
        // aborted below
      }
    })();
    await eventually(() => stack.api.app.notifications.fanOut.streamCount(sub) === 1);
    const before = stack.api.app.simulator.defaultSegment(sub, 'SEGMENT_DELAYED');
    if (!before) throw new Error('the generated traveler has no upcoming flight');

    const result = await simulate({ traveler: sub, type: 'SEGMENT_DELAYED', minutes: 45 });

    expect(result.notification).toMatchObject({
      eventType: 'SEGMENT_DELAYED',
      severity: 'warning',
      tripId: before.tripId,
      segmentId: before.segmentId,
      channel: 'push',
      isDedupSkipped: false,
    });
    expect(result.notification.title).toContain('delayed by 45 min');
    expect(result.deliveredLive).toBe(1);
    expect(result.pushed).toBe(true);
    const after = await segmentRead(token, before);
    expect(after.delayMinutes).toBe(before.delayMinutes + 45);
    expect(after.status).toBe('DELAYED');
    expect(minutesBetween(after.estimatedDeparture, before.estimatedDeparture)).toBe(45);
    expect(result.notification.body).toContain(after.estimatedDeparture.slice(11, 16));

    await eventually(() => messages.length === 1);
    expect(messages[0]).toMatchObject({ event: 'notification', id: result.notification.id });

    await eventually(() =>
      receiver.calls.some(
        (call) =>
          PushWebhookPayloadSchema.safeParse(call.json).data?.notification.id === result.notification.id,
      ),
    );
    const pushed = receiver.calls.find(
      (call) =>
        PushWebhookPayloadSchema.safeParse(call.json).data?.notification.id === result.notification.id,
    );
    expect(pushed?.signatureValid).toBe(true);
    expect(PushWebhookPayloadSchema.parse(pushed?.json)).toMatchObject({
      type: 'notification.push',
      travelerId: sub,
    });

    await eventually(async () => {
      const page = NotificationsPageSchema.parse(
        await (await signedFetch(stack.api.baseUrl, { token, path: '/v1/me/notifications' })).json(),
      );
      return page.items[0]?.deliveryStatus === 'delivered';
    });
    controller.abort();
    await reading;
  });

  it('cancels a segment, changes a gate, and announces check-in without changing the segment', async () => {
    const { sub, token } = await newTraveler();
    const cancelled = await simulate({ traveler: sub, type: 'SEGMENT_CANCELLED' });
    expect(cancelled.notification.severity).toBe('critical');
    // Days are written in words, never as raw ISO dates.
    expect(cancelled.notification.body).toMatch(
      / on (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} is cancelled/,
    );
    expect(cancelled.notification.body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect((await segmentRead(token, cancelled.segment)).status).toBe('CANCELLED');

    const gate = await simulate({ traveler: sub, type: 'GATE_CHANGED', gate: 'B42' });
    expect(gate.notification.title).toContain('B42');
    expect((await segmentRead(token, gate.segment)).gate).toBe('B42');
    expect(gate.segment.segmentId).not.toBe(cancelled.segment.segmentId);

    const checkIn = await simulate({ traveler: sub, type: 'CHECK_IN_OPEN' });
    expect(checkIn.notification).toMatchObject({ eventType: 'CHECK_IN_OPEN', severity: 'info' });
    expect(checkIn.notification.body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(await segmentRead(token, checkIn.segment)).toEqual(checkIn.segment);
  });

  it('lists each event with its facts: the segment as the event left it, and its delay and gate before', async () => {
    const { sub, token } = await newTraveler();
    const first = await simulate({ traveler: sub, type: 'SEGMENT_DELAYED', minutes: 45 });
    const second = await simulate({ traveler: sub, type: 'SEGMENT_DELAYED', minutes: 30 });
    const gate = await simulate({ traveler: sub, type: 'GATE_CHANGED', gate: 'C31' });
    const page = NotificationsPageSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { token, path: '/v1/me/notifications' })).json(),
    );
    const [gateFacts, secondFacts, firstFacts] = page.items.map((item) => item.facts);
    const { trip: _trip, ...segment } = second.segment;
    expect(secondFacts).toEqual({
      segment: { ...segment, gate: first.segment.gate },
      previous: { delayMinutes: 45, gate: first.segment.gate },
    });
    expect(firstFacts?.segment?.delayMinutes).toBe(45);
    expect(firstFacts?.previous).toEqual({ delayMinutes: 0, gate: first.segment.gate });
    expect(gateFacts?.segment).toMatchObject({ gate: 'C31', serviceNumber: gate.segment.serviceNumber });
    expect(gateFacts?.previous).toEqual({ delayMinutes: 75, gate: first.segment.gate });
  });

  it('persists a repeat of the same event but skips its push (isDedupSkipped, deliveryStatus skipped)', async () => {
    const { sub } = await newTraveler();
    const first = await simulate({ traveler: sub, type: 'CHECK_IN_OPEN' });
    const repeat = await simulate({ traveler: sub, type: 'CHECK_IN_OPEN' });
    expect(first.notification.isDedupSkipped).toBe(false);
    expect(repeat.notification).toMatchObject({ isDedupSkipped: true, deliveryStatus: 'skipped' });
    expect(repeat.pushed).toBe(false);
  });

  it('opens check-in on a traveler whose nearest trips all go by train: their next flight', async () => {
    // With the default seed this traveler's next three trips leave Zurich by train.
    const sub = 'af7ea1bd-7e8d-40ac-ac60-8ef4a6dfd84f';
    const { segment } = await simulate({ traveler: sub, type: 'CHECK_IN_OPEN' });
    expect(segment.kind).toBe('flight');
  });

  it('finds a traveler by email once they have called the service, and refuses an unknown email', async () => {
    const { email, token } = await newTraveler();
    await signedFetch(stack.api.baseUrl, { token, path: '/v1/me/notifications' });
    const result = await simulate({ traveler: email, type: 'CHECK_IN_OPEN' });
    expect(result.notification.eventType).toBe('CHECK_IN_OPEN');
    const unknown = await admin('POST', '/admin/simulate', { traveler: 'nobody@wayfare.test' });
    expect(unknown.status).toBe(404);
    expect(ErrorEnvelopeSchema.parse(await unknown.json()).error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('rejects an unknown event type and a delay out of range with 422 VALIDATION_ERROR', async () => {
    const { sub } = await newTraveler();
    for (const body of [
      { traveler: sub, type: 'VOLCANO' },
      { traveler: sub, type: 'SEGMENT_DELAYED', minutes: 0 },
    ]) {
      const response = await admin('POST', '/admin/simulate', body);
      expect(response.status).toBe(422);
      expect(ErrorEnvelopeSchema.parse(await response.json()).error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('is behind the admin token: 401 with a wrong token', async () => {
    const response = await admin(
      'POST',
      '/admin/simulate',
      { traveler: crypto.randomUUID() },
      'wrong-token-0000000000000000000',
    );
    expect(response.status).toBe(401);
  });

  it('does not exist unless TRAVEL_API_ADMIN_TOKEN is set', async () => {
    const closed = await stack.startAnotherApi({ TRAVEL_API_ADMIN_TOKEN: '' });
    try {
      const response = await admin(
        'POST',
        '/admin/simulate',
        { traveler: crypto.randomUUID() },
        TEST_ADMIN_TOKEN,
        closed,
      );
      expect(response.status).toBe(404);
      expect(ErrorEnvelopeSchema.parse(await response.json()).error.code).toBe('RESOURCE_NOT_FOUND');
    } finally {
      await closed.close();
    }
  });

  it('records a push the app refuses as failed, and keeps serving', async () => {
    const refusing = await startPushReceiver('a-different-secret-000000000001');
    const own = await stack.startAnotherApi({
      TRAVEL_API_PUSH_WEBHOOK_URL: refusing.url,
      TRAVEL_API_PUSH_WEBHOOK_SECRET: PUSH_SECRET,
    });
    try {
      const { sub, token } = await newTraveler();
      const response = await admin(
        'POST',
        '/admin/simulate',
        { traveler: sub, type: 'CHECK_IN_OPEN' },
        TEST_ADMIN_TOKEN,
        own,
      );
      expect(response.status).toBe(201);
      await eventually(async () => {
        const page = NotificationsPageSchema.parse(
          await (await signedFetch(own.baseUrl, { token, path: '/v1/me/notifications' })).json(),
        );
        return page.items[0]?.deliveryStatus === 'failed';
      });
      expect(refusing.calls.map((call) => call.status)).toEqual([401]);
    } finally {
      await own.close();
      await refusing.close();
    }
  });
});

describe('POST /admin/notifications', () => {
  it('creates an arbitrary notification on one of the traveler’s segments', async () => {
    const { sub, token } = await newTraveler();
    const segment =
      stack.api.app.trips.listSegments(sub)[0] ??
      (await simulate({ traveler: sub, type: 'CHECK_IN_OPEN' })).segment;
    const response = await admin('POST', '/admin/notifications', {
      traveler: sub,
      segmentId: segment.segmentId,
      eventType: 'BAGGAGE_BELT_ASSIGNED',
      severity: 'info',
      title: 'Your bags arrive on belt 7',
      body: 'Baggage claim belt 7.',
    });
    expect(response.status).toBe(201);
    const page = NotificationsPageSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { token, path: '/v1/me/notifications' })).json(),
    );
    expect(page.items[0]).toMatchObject({
      eventType: 'BAGGAGE_BELT_ASSIGNED',
      segmentId: segment.segmentId,
      tripId: segment.tripId,
    });
  });

  it('answers 404 for a segment that is not the traveler’s', async () => {
    const { sub } = await newTraveler();
    const response = await admin('POST', '/admin/notifications', {
      traveler: sub,
      segmentId: crypto.randomUUID(),
      eventType: 'GATE_CHANGED',
      severity: 'info',
      title: 'x',
      body: 'y',
    });
    expect(response.status).toBe(404);
  });
});

describe('demo events', () => {
  it('create one travel event per round for each traveler who called the service recently', async () => {
    const { token } = await newTraveler();
    await signedFetch(stack.api.baseUrl, { token, path: '/v1/me/notifications' });
    const demo = new DemoEvents({
      intervalSeconds: 60,
      simulator: stack.api.app.simulator,
      travelers: stack.api.app.travelers,
      logger: { info: () => undefined, warn: () => undefined },
    });
    expect(demo.round()).toBeGreaterThanOrEqual(1);
    const page = NotificationsPageSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { token, path: '/v1/me/notifications' })).json(),
    );
    expect(page.items).toHaveLength(1);
    expect(['SEGMENT_DELAYED', 'GATE_CHANGED', 'CHECK_IN_OPEN']).toContain(page.items[0]?.eventType);
  });
});

describe('npm run simulate', () => {
  it('creates a delay through the admin API of a running server and prints what changed', async () => {
    const { sub } = await newTraveler();
    const command = path.join(path.dirname(fileURLToPath(import.meta.url)), 'simulate-command.ts');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [command, '--traveler', sub, '--type', 'SEGMENT_DELAYED', '--minutes', '30'],
      {
        env: { ...process.env, TRAVEL_API_URL: stack.api.baseUrl, TRAVEL_API_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      },
    );
    expect(stdout).toContain('delayed by 30 min');
    expect(stdout).toMatch(/segment [0-9a-f-]{36} now DELAYED/);
  });

  it('exits non-zero with the error code when the server refuses', async () => {
    const command = path.join(path.dirname(fileURLToPath(import.meta.url)), 'simulate-command.ts');
    const run = promisify(execFile)(process.execPath, [command, '--traveler', 'nobody@wayfare.test'], {
      env: { ...process.env, TRAVEL_API_URL: stack.api.baseUrl, TRAVEL_API_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    });
    const failure = (await run.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string } | undefined;
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('RESOURCE_NOT_FOUND');
  });

  it('says how to trust a travel API whose certificate a local authority signed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'simulate-tls-'));
    const tls = await ensureLocalCertificates(path.join(dir, 'tls'), 'Simulate test');
    const server = createServer(
      { cert: await readFile(tls.certFile), key: await readFile(tls.keyFile) },
      (_request, response) => {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 'RESOURCE_NOT_FOUND', message: 'No such traveler.' } }));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://localhost:${(server.address() as AddressInfo).port}`;
    const command = path.join(path.dirname(fileURLToPath(import.meta.url)), 'simulate-command.ts');
    const simulate = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, [command, '--traveler', 'alex@wayfare.example', '--url', url], {
        env: { ...process.env, ...env },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: unknown) => error as { code?: number; stderr?: string },
      );
    try {
      const untrusted = await simulate({});
      expect(untrusted.code).toBe(1);
      expect(untrusted.stderr).toContain('its certificate is not trusted here');
      expect(untrusted.stderr).toContain('NODE_EXTRA_CA_CERTS=<ca.pem> npm run simulate');
      // Trusting the authority as it says reaches the server (which refuses this traveler).
      const trusted = await simulate({ NODE_EXTRA_CA_CERTS: tls.caFile });
      expect(trusted.stderr).toContain('RESOURCE_NOT_FOUND');
    } finally {
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
