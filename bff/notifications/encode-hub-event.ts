import { encodeSseEvent } from '#shared/sse.ts';
import { NOTIFICATION_STREAM_EVENT_NAMES as EVENTS } from '#shared/api/notification-stream-events.ts';
import type { Notification } from '#shared/upstream/notifications.ts';
import { SseFrame } from '../streams/sse-frame.ts';
import type { HubEvent } from './notification-hub.ts';

/** The SSE text of a hub event, in the browser-facing shapes of shared/api/notification-stream-events.ts. */
export function encodeHubEvent(event: HubEvent): string {
  switch (event.type) {
    case 'notification':
      return encodeNotification(event, JSON.stringify(event.notification));
    case 'status':
      return encodeSseEvent({ event: EVENTS.status, data: { state: event.state } });
    case 'resync':
      return encodeSseEvent({ event: EVENTS.resync, data: { reason: event.reason } });
  }
}

function encodeNotification(
  event: Extract<HubEvent, { type: 'notification' }>,
  notificationJson: string,
): string {
  return encodeSseEvent({
    event: EVENTS.notification,
    id: event.notification.id,
    rawData: `{"notification":${notificationJson},"alert":${event.alert},"replay":${event.replay}}`,
  });
}

/**
 * The notification being fanned out and its frames, one per (alert, replay) variant. A fan-out delivers
 * one notification to every stream of the traveler in one pass, so this one slot makes each distinct
 * payload encoded once per fan-out, whatever the number of tabs, without keeping the text of past
 * notifications alive.
 */
let current: { notification: Notification; json: string; frames: (SseFrame | undefined)[] } | undefined;
/** Status and resync events come from small closed sets: each is encoded once per process. */
const fixedFrames = new Map<string, SseFrame>();

/** The hub event as bytes ready for every stream it goes to (encoded once per distinct payload). */
export function hubEventFrame(event: HubEvent): SseFrame {
  if (event.type !== 'notification') {
    const key = event.type === 'status' ? `status:${event.state}` : `resync:${event.reason}`;
    let frame = fixedFrames.get(key);
    if (frame === undefined) {
      frame = new SseFrame(encodeHubEvent(event));
      fixedFrames.set(key, frame);
    }
    return frame;
  }
  if (current?.notification !== event.notification) {
    current = { notification: event.notification, json: JSON.stringify(event.notification), frames: [] };
  }
  const variant = (event.alert ? 2 : 0) + (event.replay ? 1 : 0);
  let frame = current.frames[variant];
  if (frame === undefined) {
    frame = new SseFrame(encodeNotification(event, current.json));
    current.frames[variant] = frame;
  }
  return frame;
}

export function encodeSessionEnded(reason: string): string {
  return encodeSseEvent({ event: EVENTS.sessionEnded, data: { reason } });
}

export function encodeReconnect(retryMs: number): string {
  return encodeSseEvent({ event: EVENTS.reconnect, retry: retryMs, data: { retryMs } });
}
