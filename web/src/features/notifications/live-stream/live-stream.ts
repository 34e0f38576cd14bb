import type { QueryClient } from '@tanstack/react-query';
import type { Notification } from '#shared/api/notifications.ts';
import type { SseMessage } from '#shared/sse.ts';
import type { LiveConnectionState } from '../live-connection-store.ts';
import type { ToastClaims } from './toast-once.ts';
import { createEventApplier } from './apply-event.ts';
import { createStreamConnection, type ReadStream } from './stream-connection.ts';
import { createStreamHolder, type StreamLocks, type TabChannel } from './stream-holder.ts';

/** What the live stream needs of the browser; browser-environment.ts gives the real one, tests fakes. */
export interface LiveStreamEnvironment {
  /** Web Locks where the browser can share one stream between its tabs (with BroadcastChannel). */
  locks: StreamLocks | undefined;
  channel: TabChannel;
  readStream: ReadStream;
  waitToReconnect: (delayMs: number, signal: AbortSignal) => Promise<void>;
  reportVisibility: (visibility: { tab: string; visible: boolean }) => void;
  /** Leaves the traveler's pages for `target`, forgetting what the browser kept of them. */
  leave: (target: string) => void;
  /** Another tab began signing out (true) or failed to (false): see otherTabSigningOut. */
  otherTabSigningOut: (underWay: boolean) => void;
  /** The sign-in address that brings the traveler back here. */
  loginUrl: () => string;
  toastClaims: (travelerId: string) => ToastClaims;
  /** Answers the service worker's "was it shown live?" until the returned function is called. */
  answerShownLive: (shownLive: (notificationId: string) => boolean) => () => void;
  /** The page: whether it is on screen and online, and its visibilitychange, pagehide and offline events. */
  page: {
    onScreen: () => boolean;
    offline: () => boolean;
    on: (event: 'visibilitychange' | 'pagehide' | 'offline', listener: () => void) => () => void;
  };
  newTabId: () => string;
  setConnectionState: (state: LiveConnectionState) => void;
}

export interface LiveStreamOptions {
  travelerId: string;
  queryClient: QueryClient;
  showToast: (notification: Notification) => void;
  onArrival?: ((notification: Notification) => void) | undefined;
  environment: LiveStreamEnvironment;
}

/**
 * Keeps the traveler's inbox live until the returned function is called: reads the BFF notification stream
 * (in one tab for the whole browser, stream-holder.ts), reconnecting as it goes away (stream-connection.ts),
 * and applies each event (apply-event.ts). The inbox also catches up when another tab changes read state;
 * another tab signing out leaves this one's pages too.
 */
export function startLiveStream(options: LiveStreamOptions): () => void {
  const { travelerId, environment: env } = options;
  const controller = new AbortController();
  const { signal } = controller;
  const tab = env.newTabId();
  const claims = env.toastClaims(travelerId);
  let connection: LiveConnectionState = 'connecting';

  const end = (target: string) => {
    controller.abort();
    env.leave(target);
  };
  const applier = createEventApplier({
    queryClient: options.queryClient,
    mayToast: () => !holder.shared || env.page.onScreen(),
    claimToast: claims.claim,
    stopped: () => signal.aborted,
    showToast: options.showToast,
    onArrival: options.onArrival,
    onStatus: (state) => {
      connection = state;
      env.setConnectionState(state);
    },
    // Signed out (here or in another tab): back to the start page. Expired: sign in and return.
    onSessionEnded: (signedOut) => end(signedOut ? '/' : env.loginUrl()),
    onReconnectAdvice: (milliseconds) => stream.advise(milliseconds),
  });
  const holder = createStreamHolder({
    travelerId,
    tab,
    locks: env.locks,
    channel: env.channel,
    signal,
    onScreen: env.page.onScreen,
    reportVisibility: env.reportVisibility,
    connection: () => connection,
    onRelayedEvent: applier.apply,
    onRelayedState: env.setConnectionState,
  });
  const setConnection = (state: LiveConnectionState) => {
    connection = state;
    env.setConnectionState(state);
    holder.relayState(state);
  };
  const streamPath = () => {
    const params = new URLSearchParams({ tab, visible: holder.anyTabOnScreen() ? '1' : '0' });
    const lastEventId = applier.lastEventId();
    if (lastEventId) params.set('lastEventId', lastEventId);
    return `/api/notifications/stream?${params.toString()}`;
  };
  const stream = createStreamConnection({
    signal,
    path: streamPath,
    readStream: env.readStream,
    waitToReconnect: env.waitToReconnect,
    offline: env.page.offline,
    onMessage: (message: SseMessage) => {
      applier.apply(message);
      holder.relayEvent(message);
    },
    onOpen: applier.streamOpened,
    setState: setConnection,
    onSessionExpired: () => env.leave(env.loginUrl()),
  });

  const stopHearingOtherTabs = env.channel.subscribe((message) => {
    if (message.kind === 'read-state-changed') void applier.catchUp();
    // Another tab signed out: this one forgets the traveler too, and goes to the start page.
    if (message.kind === 'signed-out') end('/');
    if (message.kind === 'signing-out' || message.kind === 'sign-out-failed')
      env.otherTabSigningOut(message.kind === 'signing-out');
  });
  // A push for a notification this page already showed live raises no system notification.
  const stopAnsweringServiceWorker = env.answerShownLive(applier.arrivedLive);
  // The browser knows before the connection does when the network went away: end the stream
  // then, and reconnect as soon as it is back (waitToReconnect).
  const stopListening = [
    env.page.on('offline', stream.wentOffline),
    env.page.on('visibilitychange', holder.visibilityChanged),
    env.page.on('pagehide', holder.pageHidden),
  ];

  if (holder.shared) env.setConnectionState('connecting');
  holder.elect(stream.run);

  return () => {
    controller.abort();
    claims.close();
    holder.stop();
    stopHearingOtherTabs();
    stopAnsweringServiceWorker();
    for (const stop of stopListening) stop();
  };
}
