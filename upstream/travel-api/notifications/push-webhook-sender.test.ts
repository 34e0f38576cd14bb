import { afterEach, describe, expect, it } from 'vitest';
import {
  PUSH_WEBHOOK_CONSUMER,
  PushWebhookPayloadSchema,
  type Notification,
} from '#shared/upstream/notifications.ts';
import { startPushReceiver, type PushReceiver } from './test-support/start-push-receiver.ts';
import { PushWebhookSender, type PushOutcome } from './push-webhook-sender.ts';

const SECRET = 'test-push-webhook-secret-0000001';
const notification: Notification = {
  id: '9e3f1a2b-4c5d-4e6f-8a7b-9c0d1e2f3a4b',
  tripId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  segmentId: '2b3c4d5e-6f70-4b8c-9d0e-1f2a3b4c5d6e',
  eventType: 'SEGMENT_DELAYED',
  severity: 'warning',
  title: 'LH 400 is delayed by 45 min',
  body: 'Frankfurt → New York: new departure 11:25.',
  deepLink:
    'wayfare://trips/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d/segment/2b3c4d5e-6f70-4b8c-9d0e-1f2a3b4c5d6e',
  channel: 'push',
  dispatchedAt: '2027-01-01T10:00:00.000Z',
  readAt: null,
  isDedupSkipped: false,
  deliveryStatus: 'pending',
  createdAt: '2027-01-01T10:00:00.000Z',
};

let receiver: PushReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function sender(url: string, outcomes: [string, PushOutcome][], maxAttempts = 4) {
  return new PushWebhookSender({
    url,
    secret: SECRET,
    maxAttempts,
    baseDelayMs: 5,
    maxDelayMs: 20,
    logger: { info: () => undefined, warn: () => undefined },
    onSettled: (id, outcome) => outcomes.push([id, outcome]),
  });
}

describe('push webhook sender', () => {
  it('POSTs the notification signed with the webhook secret as consumer travel-booking-service', async () => {
    receiver = await startPushReceiver(SECRET);
    const outcomes: [string, PushOutcome][] = [];
    const push = sender(receiver.url, outcomes);
    push.send({ type: 'notification.push', travelerId: 'traveler-1', notification });
    await push.idle();
    expect(outcomes).toEqual([[notification.id, 'delivered']]);
    expect(receiver.calls).toHaveLength(1);
    const [call] = receiver.calls;
    expect(call?.signatureValid).toBe(true);
    expect(call?.consumer).toBe(PUSH_WEBHOOK_CONSUMER);
    expect(PushWebhookPayloadSchema.parse(call?.json)).toEqual({
      type: 'notification.push',
      travelerId: 'traveler-1',
      notification,
    });
  });

  it('retries 5xx answers with back-off and reports delivered once one succeeds', async () => {
    receiver = await startPushReceiver(SECRET, [500, 503, 204]);
    const outcomes: [string, PushOutcome][] = [];
    const push = sender(receiver.url, outcomes);
    push.send({ type: 'notification.push', travelerId: 'traveler-1', notification });
    await push.idle();
    expect(receiver.calls.map((call) => call.status)).toEqual([500, 503, 204]);
    expect(receiver.calls.every((call) => call.signatureValid)).toBe(true);
    expect(outcomes).toEqual([[notification.id, 'delivered']]);
  });

  it('stops after the configured number of attempts and reports failed', async () => {
    receiver = await startPushReceiver(SECRET, [502, 502, 502, 502, 502]);
    const outcomes: [string, PushOutcome][] = [];
    const push = sender(receiver.url, outcomes, 3);
    push.send({ type: 'notification.push', travelerId: 'traveler-1', notification });
    await push.idle();
    expect(receiver.calls).toHaveLength(3);
    expect(outcomes).toEqual([[notification.id, 'failed']]);
  });

  it('does not retry a refusal such as 401', async () => {
    receiver = await startPushReceiver('another-secret-entirely-00000001');
    const outcomes: [string, PushOutcome][] = [];
    const push = sender(receiver.url, outcomes);
    push.send({ type: 'notification.push', travelerId: 'traveler-1', notification });
    await push.idle();
    expect(receiver.calls.map((call) => [call.status, call.signatureValid])).toEqual([[401, false]]);
    expect(outcomes).toEqual([[notification.id, 'failed']]);
  });

  it('retries when the receiver cannot be reached, then reports failed without throwing', async () => {
    const outcomes: [string, PushOutcome][] = [];
    const push = sender('http://127.0.0.1:9/webhooks/travel-api/push', outcomes, 2);
    push.send({ type: 'notification.push', travelerId: 'traveler-1', notification });
    await push.idle();
    expect(outcomes).toEqual([[notification.id, 'failed']]);
  });

  it('settles a delivery still waiting to retry as failed when closed', async () => {
    const failing = await startPushReceiver(SECRET, [503]);
    receiver = failing;
    const outcomes: [string, PushOutcome][] = [];
    const push = new PushWebhookSender({
      url: failing.url,
      secret: SECRET,
      maxAttempts: 3,
      baseDelayMs: 60_000,
      maxDelayMs: 60_000,
      logger: { info: () => undefined, warn: () => undefined },
      onSettled: (id, outcome) => outcomes.push([id, outcome]),
    });
    push.send({ type: 'notification.push', travelerId: 'traveler-1', notification });
    await expect.poll(() => failing.calls.length).toBeGreaterThan(0);
    await push.close();
    expect(outcomes).toEqual([[notification.id, 'failed']]);
    expect(push.pending).toBe(0);
  });
});
