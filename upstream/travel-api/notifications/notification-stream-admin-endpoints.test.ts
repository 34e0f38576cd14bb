import { describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { adminFetch } from './test-support/admin-fetch.ts';
import { eventually } from './test-support/eventually.ts';
import { notifyTraveler, openNotificationStream } from './test-support/open-notification-stream.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const stack = travelApiWithIdentity();

const END = '/admin/notification-streams/end';

const newTraveler = () => stack.identity.newTraveler();

const openStream = (token: string) => openNotificationStream(stack.api.baseUrl, token);

async function endStreams(body?: unknown): Promise<Response> {
  return adminFetch(stack.api.baseUrl, 'POST', END, body);
}

const notify = (traveler: string, title: string) => notifyTraveler(stack.api.baseUrl, traveler, title);

const streamCount = (sub?: string) => stack.api.app.notifications.fanOut.streamCount(sub);

describe('POST /admin/notification-streams/end', () => {
  it('ends every open notification stream with `done` and an empty object, and answers how many', async () => {
    const alice = await newTraveler();
    const bob = await newTraveler();
    const streams = [
      await openStream(alice.token),
      await openStream(alice.token),
      await openStream(bob.token),
    ];
    await eventually(() => streamCount(alice.sub) === 2 && streamCount(bob.sub) === 1);
    const before = streamCount();

    const response = await endStreams();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ended: before });

    await Promise.all(streams.map((stream) => stream.finished()));
    for (const stream of streams) {
      expect(stream.ended()).toBe(true);
      expect(stream.messages.map((message) => message.event)).toEqual(['done']);
      expect(JSON.parse(stream.messages[0]?.data ?? '')).toEqual({});
    }
    expect(streamCount()).toBe(0);
  });

  it('ends only the given traveler’s streams; the others keep receiving notifications', async () => {
    const alice = await newTraveler();
    const bob = await newTraveler();
    const aliceStream = await openStream(alice.token);
    const bobStream = await openStream(bob.token);
    try {
      await eventually(() => streamCount(alice.sub) === 1 && streamCount(bob.sub) === 1);

      const response = await endStreams({ travelerId: alice.sub });
      expect(await response.json()).toEqual({ ended: 1 });
      await aliceStream.finished();
      expect(aliceStream.messages.map((message) => message.event)).toEqual(['done']);

      await notify(bob.sub, 'still live');
      await eventually(() => bobStream.messages.length === 1);
      expect(bobStream.messages[0]?.event).toBe('notification');
      expect(bobStream.ended()).toBe(false);
    } finally {
      await bobStream.close();
    }
  });

  it('sends the events already queued before `done`, and a reopened stream is live again', async () => {
    const { sub, token } = await newTraveler();
    const first = await openStream(token);
    await eventually(() => streamCount(sub) === 1);
    await notify(sub, 'before the end');
    await endStreams({ travelerId: sub });
    await first.finished();
    expect(first.messages.map((message) => message.event)).toEqual(['notification', 'done']);

    const second = await openStream(token);
    try {
      await eventually(() => streamCount(sub) === 1);
      await notify(sub, 'after the end');
      await eventually(() => second.messages.length === 1);
      expect(JSON.parse(second.messages[0]?.data ?? '')).toMatchObject({ title: 'after the end' });
    } finally {
      await second.close();
    }
  });

  it('answers { ended: 0 } when the traveler has no open stream', async () => {
    const response = await endStreams({ travelerId: crypto.randomUUID() });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ended: 0 });
  });

  it('rejects a travelerId that is not a UUID with 422 VALIDATION_ERROR on that field', async () => {
    const response = await endStreams({ travelerId: 'alex@wayfare.example' });
    expect(response.status).toBe(422);
    const { error } = ErrorEnvelopeSchema.parse(await response.json());
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details[0]?.field).toBe('travelerId');
  });

  it('is behind the admin token: 401 UNAUTHORIZED with a wrong one, and no stream ends', async () => {
    const { sub, token } = await newTraveler();
    const stream = await openStream(token);
    try {
      await eventually(() => streamCount(sub) === 1);
      const response = await adminFetch(stack.api.baseUrl, 'POST', END, {}, 'not-the-admin-token');
      expect(response.status).toBe(401);
      expect(ErrorEnvelopeSchema.parse(await response.json()).error.code).toBe('UNAUTHORIZED');
      expect(streamCount(sub)).toBe(1);
      expect(stream.ended()).toBe(false);
    } finally {
      await stream.close();
    }
  });
});
