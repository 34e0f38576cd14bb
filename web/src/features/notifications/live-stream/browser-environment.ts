import { apiSend } from '../../../lib/api-client.ts';
import { readEventStream } from '../../../lib/event-stream.ts';
import { leaveEndedSession, otherTabSigningOut } from '../../../lib/leave-ended-session.ts';
import { loginUrl } from '../../../lib/login-url.ts';
import { answerShownLive } from './answer-shown-live.ts';
import { setLiveConnectionState } from '../live-connection-store.ts';
import { subscribeToOtherTabs } from '../hear-other-tabs.ts';
import { postToOtherTabs } from '../notification-channel.ts';
import { createToastClaims } from './toast-once.ts';
import { waitToReconnect } from './wait-to-reconnect.ts';
import type { LiveStreamEnvironment } from './live-stream.ts';

/** Where the browser can elect one tab (Web Locks) and relay to the others (BroadcastChannel). */
function canShareOneStream(): boolean {
  return navigator.locks !== undefined && typeof BroadcastChannel === 'function';
}

/** The live stream in this browser tab. */
export function browserEnvironment(): LiveStreamEnvironment {
  return {
    locks: canShareOneStream() ? navigator.locks : undefined,
    channel: { post: postToOtherTabs, subscribe: subscribeToOtherTabs },
    readStream: readEventStream,
    waitToReconnect,
    reportVisibility: (visibility) => {
      apiSend('/api/notifications/stream/visibility', { method: 'POST', body: visibility }).catch(
        () => undefined,
      );
    },
    leave: (target) => void leaveEndedSession(target),
    otherTabSigningOut,
    loginUrl: () => loginUrl(),
    toastClaims: createToastClaims,
    answerShownLive,
    page: {
      onScreen: () => document.visibilityState === 'visible',
      offline: () => navigator.onLine === false,
      on: (event, listener) => {
        const target = event === 'visibilitychange' ? document : window;
        target.addEventListener(event, listener);
        return () => target.removeEventListener(event, listener);
      },
    },
    newTabId: () => crypto.randomUUID().replaceAll('-', ''),
    setConnectionState: setLiveConnectionState,
  };
}
