import { describe, expect, it, vi } from 'vitest';
import { readSseStream } from '#shared/sse.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import {
  NotificationSchema,
  NotificationsPageSchema,
  type Notification,
} from '#shared/upstream/notifications.ts';
import { watchLatencyWait } from '../test-support/latency-wait.ts';
import { signedFetch, type SignedRequest } from '../test-support/signed-fetch.ts';
import type { RunningTravelApi } from '../test-support/start-travel-api.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';
import { adminFetch } from './test-support/admin-fetch.ts';
import { eventually } from './test-support/eventually.ts';
import { notifyTraveler, openNotificationStream } from './test-support/open-notification-stream.ts';

const stack = travelApiWithIdentity({ clearFaultsBeforeEach: true });

const newTraveler = () => stack.identity.newTraveler();

function call(token: string, request: SignedRequest, target = stack.api): Promise<Response> {
  return signedFetch(target.baseUrl, { token, ...request });
}

const admin = (target: RunningTravelApi, method: string, path: string, json?: unknown) =>
  adminFetch(target.baseUrl, method, path, json);

const notify = (traveler: string, title: string, target = stack.api): Promise<Notification> =>
  notifyTraveler(target.baseUrl, traveler, title);

async function expectEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const envelope = ErrorEnvelopeSchema.parse(await response.json());
  expect(envelope.error.code).toBe(code);
  return envelope.error;
}

const openStream = (token: string, target = stack.api) => openNotificationStream(target.baseUrl, token);

describe('GET /v1/me/notifications', () => {
  it('returns the traveler’s NotificationOut items newest first in the cursor page envelope', async () => {
    const { sub, token } = await newTraveler();
    await notify(sub, 'first');
    await notify(sub, 'second');
    const response = await call(token, { path: '/v1/me/notifications' });
    expect(response.status).toBe(200);
    const page = NotificationsPageSchema.parse(await response.json());
    expect(page.items.map((item) => item.title)).toEqual(['second', 'first']);
    expect(page.meta).toEqual({ totalCount: 2, pageSize: 2, nextCursor: null, unreadCount: 2 });
    expect(page.items[0]).toMatchObject({
      readAt: null,
      isDedupSkipped: false,
      channel: 'in_app',
      deliveryStatus: 'delivered',
      deepLink: `wayfare://trips/${page.items[0]?.tripId}/segment/${page.items[0]?.segmentId}`,
    });
  });

  it('pages with the cursor `before` from meta.nextCursor until nextCursor is null', async () => {
    const { sub, token } = await newTraveler();
    for (const title of ['n1', 'n2', 'n3', 'n4', 'n5']) await notify(sub, title);
    const titles: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '' : `&before=${encodeURIComponent(cursor)}`;
      const response = await call(token, { path: `/v1/me/notifications?limit=2${query}` });
      const page = NotificationsPageSchema.parse(await response.json());
      expect(page.meta.totalCount).toBe(5);
      titles.push(...page.items.map((item) => item.title));
      cursor = page.meta.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(titles).toEqual(['n5', 'n4', 'n3', 'n2', 'n1']);
  });

  it('keeps a page boundary stable while new notifications arrive', async () => {
    const { sub, token } = await newTraveler();
    for (const title of ['a', 'b', 'c']) await notify(sub, title);
    const first = NotificationsPageSchema.parse(
      await (await call(token, { path: '/v1/me/notifications?limit=2' })).json(),
    );
    await notify(sub, 'newer');
    const next = NotificationsPageSchema.parse(
      await (
        await call(token, { path: `/v1/me/notifications?limit=2&before=${first.meta.nextCursor ?? ''}` })
      ).json(),
    );
    expect(next.items.map((item) => item.title)).toEqual(['a']);
  });

  it('filters unread notifications with unreadOnly=true', async () => {
    const { sub, token } = await newTraveler();
    const read = await notify(sub, 'read one');
    await notify(sub, 'unread one');
    await call(token, { method: 'POST', path: `/v1/me/notifications/${read.id}/read` });
    const page = NotificationsPageSchema.parse(
      await (await call(token, { path: '/v1/me/notifications?unreadOnly=true' })).json(),
    );
    expect(page.items.map((item) => item.title)).toEqual(['unread one']);
    expect(page.meta).toMatchObject({ totalCount: 1, unreadCount: 1 });
  });

  it('rejects a cursor it did not issue and an out-of-range limit with 422 VALIDATION_ERROR', async () => {
    const { token } = await newTraveler();
    const badCursor = await expectEnvelope(
      await call(token, { path: '/v1/me/notifications?before=not-a-cursor' }),
      422,
      'VALIDATION_ERROR',
    );
    expect(badCursor.details[0]?.field).toBe('before');
    const badLimit = await expectEnvelope(
      await call(token, { path: '/v1/me/notifications?limit=500' }),
      422,
      'VALIDATION_ERROR',
    );
    expect(badLimit.details[0]?.field).toBe('limit');
  });

  it('answers 401 UNAUTHORIZED without a bearer token', async () => {
    await expectEnvelope(
      await signedFetch(stack.api.baseUrl, { path: '/v1/me/notifications' }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('never shows one traveler another traveler’s notifications', async () => {
    const alice = await newTraveler();
    const bob = await newTraveler();
    await notify(alice.sub, 'for alice');
    const page = NotificationsPageSchema.parse(
      await (await call(bob.token, { path: '/v1/me/notifications' })).json(),
    );
    expect(page.items).toEqual([]);
  });
});

describe('POST /v1/me/notifications/:id/read and /read-all', () => {
  it('sets readAt once and keeps it on repeated calls', async () => {
    const { sub, token } = await newTraveler();
    const notification = await notify(sub, 'to read');
    const first = NotificationSchema.parse(
      await (
        await call(token, { method: 'POST', path: `/v1/me/notifications/${notification.id}/read` })
      ).json(),
    );
    expect(first.readAt).not.toBeNull();
    const again = NotificationSchema.parse(
      await (
        await call(token, { method: 'POST', path: `/v1/me/notifications/${notification.id}/read` })
      ).json(),
    );
    expect(again.readAt).toBe(first.readAt);
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown id or another traveler’s notification', async () => {
    const alice = await newTraveler();
    const bob = await newTraveler();
    const notification = await notify(alice.sub, 'private');
    await expectEnvelope(
      await call(bob.token, { method: 'POST', path: `/v1/me/notifications/${notification.id}/read` }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectEnvelope(
      await call(bob.token, { method: 'POST', path: `/v1/me/notifications/${crypto.randomUUID()}/read` }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('marks every unread notification read at once', async () => {
    const { sub, token } = await newTraveler();
    await notify(sub, 'one');
    await notify(sub, 'two');
    const response = await call(token, { method: 'POST', path: '/v1/me/notifications/read-all' });
    expect(await response.json()).toEqual({ updatedCount: 2 });
    const page = NotificationsPageSchema.parse(
      await (await call(token, { path: '/v1/me/notifications' })).json(),
    );
    expect(page.meta.unreadCount).toBe(0);
    expect(page.items.every((item) => item.readAt !== null)).toBe(true);
  });
});

describe('GET /v1/me/notifications/stream', () => {
  it('returns 200, text/event-stream, Cache-Control no-cache and a retry field at stream start', async () => {
    const { token } = await newTraveler();
    const stream = await openStream(token);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get('cache-control')).toBe('no-cache');
      await eventually(() => stream.retry() !== undefined);
      expect(stream.retry()).toBe(stack.api.config.TRAVEL_API_SSE_RETRY_MS);
    } finally {
      await stream.close();
    }
  });

  it('sends each notification as persisted, as a `notification` event whose id is the notification id', async () => {
    const { sub, token } = await newTraveler();
    const stream = await openStream(token);
    try {
      await eventually(() => stack.api.app.notifications.fanOut.streamCount(sub) === 1);
      const created = await notify(sub, 'live one');
      await eventually(() => stream.messages.length === 1);
      const [message] = stream.messages;
      expect(message?.event).toBe('notification');
      expect(message?.id).toBe(created.id);
      expect(NotificationSchema.parse(JSON.parse(message?.data ?? ''))).toEqual(created);
    } finally {
      await stream.close();
    }
  });

  it('sends a traveler only their own notifications', async () => {
    const alice = await newTraveler();
    const bob = await newTraveler();
    const bobStream = await openStream(bob.token);
    const aliceStream = await openStream(alice.token);
    try {
      await eventually(() => stack.api.app.notifications.fanOut.streamCount(alice.sub) === 1);
      await notify(alice.sub, 'only alice');
      await eventually(() => aliceStream.messages.length === 1);
      await notify(bob.sub, 'only bob');
      await eventually(() => bobStream.messages.length === 1);
      expect(JSON.parse(bobStream.messages[0]?.data ?? '')).toMatchObject({ title: 'only bob' });
    } finally {
      await bobStream.close();
      await aliceStream.close();
    }
  });

  it('answers 401 UNAUTHORIZED for a missing or invalid bearer token', async () => {
    await expectEnvelope(
      await signedFetch(stack.api.baseUrl, { path: '/v1/me/notifications/stream' }),
      401,
      'UNAUTHORIZED',
    );
    await expectEnvelope(
      await signedFetch(stack.api.baseUrl, { path: '/v1/me/notifications/stream', token: 'not-a-jwt' }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('answers 503 SERVICE_UNAVAILABLE while startup is in progress', async () => {
    const { token } = await newTraveler();
    await admin(stack.api, 'PUT', '/admin/faults', { startupInProgress: true });
    const error = await expectEnvelope(
      await call(token, { path: '/v1/me/notifications/stream' }),
      503,
      'SERVICE_UNAVAILABLE',
    );
    expect(error.recoveryAction).toBe('RETRY_LATER');
  });

  it('persists every notification but sends only the share the multi-worker gap leaves live', async () => {
    const { sub, token } = await newTraveler();
    await admin(stack.api, 'PUT', '/admin/faults', { multiWorkerGapShare: 0.5 });
    const stream = await openStream(token);
    try {
      await eventually(() => stack.api.app.notifications.fanOut.streamCount(sub) === 1);
      for (const title of ['g1', 'g2', 'g3', 'g4']) await notify(sub, title);
      await eventually(() => stream.messages.length === 2);
      const page = NotificationsPageSchema.parse(
        await (await call(token, { path: '/v1/me/notifications' })).json(),
      );
      expect(page.meta.totalCount).toBe(4);
      const live = new Set(stream.messages.map((message) => message.id));
      expect(page.items.filter((item) => live.has(item.id))).toHaveLength(2);
    } finally {
      await stream.close();
    }
  });

  it('delays each live event by the injected latency: the event waits for a timer of that length', async () => {
    const { sub, token } = await newTraveler();
    const stream = await openStream(token);
    try {
      await eventually(() => stack.api.app.notifications.fanOut.streamCount(sub) === 1);
      await admin(stack.api, 'PUT', '/admin/faults', { latencyMs: 250 });
      const latency = watchLatencyWait(stack.api.app.faults);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], fakeNodeBuiltins: true });
      let sent: Notification;
      try {
        const notified = notify(sub, 'slow one');
        await latency.reached;
        await vi.advanceTimersByTimeAsync(249);
        // Stored and answered; its live event still waits.
        sent = await notified;
        expect(latency.over()).toBe(false);
        expect(stream.messages).toEqual([]);
        await vi.advanceTimersByTimeAsync(1);
        expect(latency.over()).toBe(true);
      } finally {
        vi.useRealTimers();
        latency.restore();
      }
      await eventually(() => stream.messages.length === 1);
      expect(stream.messages[0]?.id).toBe(sent.id);
    } finally {
      await stream.close();
    }
  });

  it('closes the stream without `done` after N events when told to drop it', async () => {
    const { sub, token } = await newTraveler();
    await admin(stack.api, 'PUT', '/admin/faults', { dropStreamAfterEvents: 2 });
    const stream = await openStream(token);
    await eventually(() => stack.api.app.notifications.fanOut.streamCount(sub) === 1);
    for (const title of ['d1', 'd2', 'd3']) await notify(sub, title);
    await stream.finished();
    expect(stream.messages.map((message) => message.event)).toEqual(['notification', 'notification']);
    expect(stack.api.app.notifications.fanOut.streamCount(sub)).toBe(0);
  });

  it('sends `done` with an empty object to every open stream when the server shuts down gracefully', async () => {
    const own = await stack.startAnotherApi();
    const { sub, token } = await newTraveler();
    const first = await openStream(token, own);
    const second = await openStream(token, own);
    await eventually(() => own.app.notifications.fanOut.streamCount(sub) === 2);
    await own.close();
    await Promise.all([first.finished(), second.finished()]);
    for (const stream of [first, second]) {
      expect(stream.messages.map((message) => message.event)).toEqual(['done']);
      expect(JSON.parse(stream.messages[0]?.data ?? '')).toEqual({});
    }
  });

  it('sends heartbeat comments on a quiet stream', async () => {
    const own = await stack.startAnotherApi({ TRAVEL_API_SSE_HEARTBEAT_SECONDS: '1' });
    const { token } = await newTraveler();
    try {
      const response = await signedFetch(own.baseUrl, { token, path: '/v1/me/notifications/stream' });
      const comments: string[] = [];
      const controller = new AbortController();
      const reading = (async () => {
        try {
          for await (const _ of readSseStream(response.body as ReadableStream<Uint8Array>, {
            signal: controller.signal,
            onComment: (comment) => comments.push(comment),
          })) {
            // no events expected
          }
        } catch {
          // aborted below
        }
      })();
      await eventually(() => comments.length > 0);
      controller.abort();
      await reading;
      expect(comments[0]?.trim()).toBe('heartbeat');
    } finally {
      await own.close();
    }
  });
});
