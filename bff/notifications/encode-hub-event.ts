import { encodeSseEvent } from '../../shared/sse.ts';
import { NOTIFICATION_STREAM_EVENT_NAMES as EVENTS } from '../../shared/api/notification-stream-events.ts';
import type { HubEvent } from './notification-hub.ts';

/** One JSON text per notification, however many tabs it fans out to. */
const notificationJson = new WeakMap<object, string>();

function jsonOf(notification: object): string {
  let json = notificationJson.get(notification);
  if (json === undefined) {
    json = JSON.stringify(notification);
    notificationJson.set(notification, json);
  }
  return json;
}

/** The SSE text of a hub event, in the browser-facing shapes of shared/api/notification-stream-events.ts. */
export function encodeHubEvent(event: HubEvent): string {
  switch (event.type) {
    case 'notification':
      return encodeSseEvent({
        event: EVENTS.notification,
        id: event.notification.id,
        rawData: `{"notification":${jsonOf(event.notification)},"alert":${event.alert},"replay":${event.replay}}`,
      });
    case 'status':
      return encodeSseEvent({ event: EVENTS.status, data: { state: event.state } });
    case 'resync':
      return encodeSseEvent({ event: EVENTS.resync, data: { reason: event.reason } });
  }
}

export function encodeSessionEnded(reason: string): string {
  return encodeSseEvent({ event: EVENTS.sessionEnded, data: { reason } });
}

export function encodeReconnect(retryMs: number): string {
  return encodeSseEvent({ event: EVENTS.reconnect, retry: retryMs, data: { retryMs } });
}
