import type { SseMessage } from '#shared/sse.ts';
import { isSessionExpired } from '../../../lib/bff-error.ts';
import type { EventStreamOptions, StreamEnd } from '../../../lib/event-stream.ts';
import type { LiveConnectionState } from '../live-connection-store.ts';
import { nextReconnectDelay } from './reconnect-delay.ts';

/** Reads one stream until it ends (lib/event-stream.ts's readEventStream in the browser). */
export type ReadStream = (
  path: string,
  options: Pick<EventStreamOptions, 'signal' | 'priority' | 'onEvent' | 'onOpen' | 'onRetry'>,
) => Promise<StreamEnd>;

export interface StreamConnectionOptions {
  /** Ends the connection for good (signed out, the app stopped listening). */
  signal: AbortSignal;
  /** The stream's path for the next attempt (it carries the last event id heard and the tab's visibility). */
  path: () => string;
  readStream: ReadStream;
  /** The pause before the next attempt (wait-to-reconnect.ts: at once when the browser comes back online). */
  waitToReconnect: (delayMs: number, signal: AbortSignal) => Promise<void>;
  /** Whether the browser says it is offline. */
  offline: () => boolean;
  onMessage: (message: SseMessage) => void;
  /** A connection opened (its `live` is still to come). */
  onOpen: () => void;
  setState: (state: LiveConnectionState) => void;
  /** The BFF refused the stream because the session is gone. */
  onSessionExpired: () => void;
  random?: () => number;
}

export interface StreamConnection {
  /** Reads, and reopens after each end with a growing back-off, until the signal aborts or the session goes. */
  run: () => Promise<void>;
  /** The server's advice for the next reconnect (`retry:` or a `reconnect` event), in milliseconds. */
  advise: (milliseconds: number) => void;
  /** The browser went offline: the connection says so and ends the attempt; it reopens once back online. */
  wentOffline: () => void;
}

/** The notification stream's connection: reading, reconnecting, and following the browser off and on line. */
export function createStreamConnection(options: StreamConnectionOptions): StreamConnection {
  const { signal } = options;
  let retryAdvice: number | undefined;
  let failures = 0;
  // Aborted when the browser goes offline, or with everything else when the app stops listening.
  let attempt: AbortController | undefined;
  signal.addEventListener('abort', () => attempt?.abort());

  const run = async () => {
    let reopened = false;
    while (!signal.aborted) {
      options.setState(reopened ? 'reconnecting' : 'connecting');
      attempt = new AbortController();
      const end = await options
        .readStream(options.path(), {
          signal: attempt.signal,
          // Open for as long as the page is: never ahead of what the page is loading. A stream at the
          // default (high) priority also counts as a page load still under way for tools that wait for
          // the network to settle (Lighthouse waits for its 45 s limit and warns that results may be
          // incomplete).
          priority: 'low',
          onEvent: options.onMessage,
          onRetry: (milliseconds) => {
            retryAdvice = milliseconds;
          },
          onOpen: () => {
            failures = 0;
            options.onOpen();
          },
        })
        .catch((): StreamEnd => ({ kind: 'truncated' }));
      if (signal.aborted) return;
      if (end.kind === 'error' && isSessionExpired(end.error)) {
        options.onSessionExpired();
        return;
      }
      options.setState(options.offline() ? 'offline' : 'reconnecting');
      // Ended because the browser went offline: no failure of the server's, no back-off to grow.
      if (end.kind !== 'aborted') failures += 1;
      reopened = true;
      const delay = nextReconnectDelay(Math.max(failures, 1), retryAdvice, options.random);
      retryAdvice = undefined;
      await options.waitToReconnect(delay, signal);
    }
  };

  return {
    run,
    advise: (milliseconds) => {
      retryAdvice = milliseconds;
    },
    wentOffline: () => {
      options.setState('offline');
      attempt?.abort();
    },
  };
}
