import { expect } from 'vitest';
import { readSseStream, type SseMessage } from '#shared/sse.ts';
import { NotificationSchema, type Notification } from '#shared/upstream/notifications.ts';
import { signedFetch } from '../../test-support/signed-fetch.ts';
import { adminFetch } from './admin-fetch.ts';

/** An open notification stream of the travel API at `baseUrl`, read in the background. */
export async function openNotificationStream(baseUrl: string, token: string) {
  const controller = new AbortController();
  const response = await signedFetch(baseUrl, {
    token,
    path: '/v1/me/notifications/stream',
    headers: { accept: 'text/event-stream' },
  });
  const messages: SseMessage[] = [];
  let retry: number | undefined;
  let ended = false;
  const reading = (async () => {
    if (!response.body) return;
    try {
      for await (const message of readSseStream(response.body, {
        signal: controller.signal,
        onRetry: (ms) => (retry = ms),
      })) {
        messages.push(message);
      }
    } catch {
      // aborted by the test
    } finally {
      ended = true;
    }
  })();
  return {
    response,
    messages,
    retry: () => retry,
    /** True once reading stopped: the server ended the stream, or close() was called. */
    ended: () => ended,
    close: async () => {
      controller.abort();
      await reading;
    },
    finished: () => reading,
  };
}

/** Raises a notification for `traveler` through the admin API and returns it as persisted. */
export async function notifyTraveler(
  baseUrl: string,
  traveler: string,
  title: string,
): Promise<Notification> {
  const response = await adminFetch(baseUrl, 'POST', '/admin/notifications', {
    traveler,
    eventType: 'GATE_CHANGED',
    severity: 'warning',
    title,
    body: `Body of ${title}`,
  });
  expect(response.status).toBe(201);
  return NotificationSchema.parse(((await response.json()) as { notification: unknown }).notification);
}
