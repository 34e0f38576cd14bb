import { describe, expect, it } from 'vitest';
import { NotificationStreamNotificationSchema } from '#shared/api/notification-stream-events.ts';
import { readSseStream } from '#shared/sse.ts';
import { notificationFixture } from '../test-support/scripted-travel-api.ts';
import { encodeHubEvent, hubEventFrame } from './encode-hub-event.ts';

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

describe('hubEventFrame', () => {
  it('encodes a notification once per distinct payload: the toast variant and the quiet one', () => {
    const notification = notificationFixture('n-7');
    const quiet = hubEventFrame({ type: 'notification', notification, alert: false, replay: false });
    const alerting = hubEventFrame({ type: 'notification', notification, alert: true, replay: false });
    expect(hubEventFrame({ type: 'notification', notification, alert: false, replay: false })).toBe(quiet);
    expect(hubEventFrame({ type: 'notification', notification, alert: true, replay: false })).toBe(alerting);
    expect(alerting).not.toBe(quiet);
    expect(quiet.text).toBe(
      encodeHubEvent({ type: 'notification', notification, alert: false, replay: false }),
    );
    expect(alerting.text).toBe(
      encodeHubEvent({ type: 'notification', notification, alert: true, replay: false }),
    );
  });

  it('never serves the frame of an earlier notification for a later one', () => {
    const first = hubEventFrame({
      type: 'notification',
      notification: notificationFixture('n-1'),
      alert: false,
      replay: false,
    });
    const second = hubEventFrame({
      type: 'notification',
      notification: notificationFixture('n-2'),
      alert: false,
      replay: false,
    });
    expect(first.text).toContain('id: n-1');
    expect(second.text).toContain('id: n-2');
  });

  it('encodes each status and resync event once per process', () => {
    expect(hubEventFrame({ type: 'status', state: 'live' })).toBe(
      hubEventFrame({ type: 'status', state: 'live' }),
    );
    expect(hubEventFrame({ type: 'resync', reason: 'gap' }).text).toBe(
      encodeHubEvent({ type: 'resync', reason: 'gap' }),
    );
  });
});
