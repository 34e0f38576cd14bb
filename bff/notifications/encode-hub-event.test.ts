import { describe, expect, it } from 'vitest';
import { NotificationStreamNotificationSchema } from '../../shared/api/notification-stream-events.ts';
import { readSseStream } from '../../shared/sse.ts';
import { notificationFixture } from '../streams/testing/scripted-travel-api.ts';
import { encodeHubEvent } from './encode-hub-event.ts';

async function parse(text: string) {
  const body = new Blob([text]).stream();
  const events = [];
  for await (const event of readSseStream(body)) events.push(event);
  return events;
}

describe('encodeHubEvent', () => {
  it('writes a notification event the browser contract parses, with id = notification id', async () => {
    const notification = notificationFixture('n-42');
    const [event] = await parse(
      encodeHubEvent({ type: 'notification', notification, alert: true, replay: false }),
    );
    expect(event?.event).toBe('notification');
    expect(event?.id).toBe('n-42');
    expect(NotificationStreamNotificationSchema.parse(JSON.parse(event?.data ?? ''))).toEqual({
      notification,
      alert: true,
      replay: false,
    });
  });

  it('writes status and resync events as JSON objects', async () => {
    const events = await parse(
      encodeHubEvent({ type: 'status', state: 'reconnecting' }) +
        encodeHubEvent({ type: 'resync', reason: 'gap' }),
    );
    expect(events).toEqual([
      { event: 'status', data: '{"state":"reconnecting"}' },
      { event: 'resync', data: '{"reason":"gap"}' },
    ]);
  });
});
