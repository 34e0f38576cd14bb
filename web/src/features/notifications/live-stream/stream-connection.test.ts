// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { SseMessage } from '#shared/sse.ts';
import { BffError } from '../../../lib/bff-error.ts';
import { FakeStreams } from '../../../test-support/live-stream-fakes.ts';
import type { LiveConnectionState } from '../live-connection-store.ts';
import { createStreamConnection } from './stream-connection.ts';

function connectionFor() {
  const controller = new AbortController();
  const streams = new FakeStreams();
  const states: LiveConnectionState[] = [];
  const delays: number[] = [];
  const heard: SseMessage[] = [];
  let offline = false;
  let attempt = 0;
  const onSessionExpired = vi.fn();
  const connection = createStreamConnection({
    signal: controller.signal,
    path: () => `/api/notifications/stream?attempt=${++attempt}`,
    readStream: streams.read,
    waitToReconnect: (delayMs) => {
      delays.push(delayMs);
      return Promise.resolve();
    },
    offline: () => offline,
    onMessage: (message) => heard.push(message),
    onOpen: vi.fn(),
    setState: (state) => states.push(state),
    onSessionExpired,
    random: () => 0.5,
  });
  const running = connection.run();
  return {
    controller,
    streams,
    states,
    delays,
    heard,
    connection,
    running,
    onSessionExpired,
    setOffline: (next: boolean) => (offline = next),
  };
}

const opened = async (streams: FakeStreams, count: number) =>
  vi.waitFor(() => expect(streams.opened).toHaveLength(count));

describe('the notification stream connection', () => {
  it('hands on what it reads, and reopens after each end on a fresh path with a growing back-off', async () => {
    const { streams, states, delays, heard, controller, running } = connectionFor();
    await opened(streams, 1);
    streams.last.send({ event: 'status', data: '{"state":"live"}' });
    expect(heard).toHaveLength(1);
    streams.last.end({ kind: 'truncated' });
    await opened(streams, 2);
    streams.last.end({ kind: 'truncated' });
    await opened(streams, 3);
    expect(streams.opened.map((stream) => stream.path)).toEqual([
      '/api/notifications/stream?attempt=1',
      '/api/notifications/stream?attempt=2',
      '/api/notifications/stream?attempt=3',
    ]);
    // Open as long as the page is, it never goes ahead of what the page loads.
    expect(streams.opened.map((stream) => stream.priority)).toEqual(['low', 'low', 'low']);
    // Each attempt opened, so the failures start again at one: the first back-off each time.
    expect(delays).toEqual([750, 750]);
    expect(states).toEqual(['connecting', 'reconnecting', 'reconnecting', 'reconnecting', 'reconnecting']);
    controller.abort();
    await running;
    expect(streams.last.aborted()).toBe(true);
  });

  it('waits as the server advises, with a `retry:` or a reconnect event, once', async () => {
    const { streams, delays, connection, controller, running } = connectionFor();
    await opened(streams, 1);
    connection.advise(2500);
    streams.last.end({ kind: 'done' });
    await opened(streams, 2);
    streams.last.end({ kind: 'done' });
    await opened(streams, 3);
    expect(delays).toEqual([2500, 750]);
    controller.abort();
    await running;
  });

  it('says it is offline at once when the browser goes offline, and grows no back-off for it', async () => {
    const { streams, states, delays, connection, controller, running, setOffline } = connectionFor();
    await opened(streams, 1);
    setOffline(true);
    connection.wentOffline();
    expect(streams.opened[0]?.aborted()).toBe(true);
    await opened(streams, 2);
    expect(states.slice(0, 3)).toEqual(['connecting', 'offline', 'offline']);
    expect(delays).toEqual([750]);
    controller.abort();
    await running;
  });

  it('stops for good when the BFF says the session is gone', async () => {
    const { streams, onSessionExpired, running } = connectionFor();
    await opened(streams, 1);
    streams.last.end({
      kind: 'error',
      error: new BffError({
        status: 401,
        body: {
          code: 'SESSION_EXPIRED',
          message: 'Sign in again',
          details: [],
          recoveryAction: 'RETRY_NOW',
          retryAfterSeconds: null,
        },
      }),
    });
    await running;
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(streams.opened).toHaveLength(1);
  });
});
