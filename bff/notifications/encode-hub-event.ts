import { encodeSseEvent } from '../../shared/sse.ts';
import { NOTIFICATION_STREAM_EVENT_NAMES as EVENTS } from '../../shared/api/notification-stream-events.ts';
import type { HubEvent } from './notification-hub.ts';

/** The SSE text of a hub event, in the browser-facing shapes of shared/api/notification-stream-events.ts. */
export function encodeHubEvent(event: HubEvent): string {
  switch (event.type) {
    case 'notification':
      return encodeSseEvent({
        event: EVENTS.notification,
        id: event.notification.id,
        data: { notification: event.notification, alert: event.alert, replay: event.replay },
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
