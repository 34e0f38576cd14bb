import { useEffect, useState } from 'react';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import type { MessageId } from '../../../i18n/i18n.ts';
import { useT } from '../../../i18n/use-t.ts';
import { apiJson, apiSend } from '../../../lib/api-client.ts';

/** GET /api/push/public-key: the application server's VAPID public key. */
interface PublicKey {
  publicKey: string;
}
/** GET /api/push/subscriptions: the push endpoints this session has subscribed. */
interface SessionSubscriptions {
  endpoints: string[];
}

type PushState = 'checking' | 'unsupported' | 'denied' | 'off' | 'on' | 'working';

function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The VAPID key arrives base64url-encoded; PushManager wants its bytes. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replaceAll('-', '+')
    .replaceAll('_', '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Whether alerts are on for whoever is signed in: the browser's subscription must be one this session
 * turned on. A subscription left by another session (another traveler on this browser, or a session that
 * ended) sends this traveler nothing, so it shows as off.
 */
async function subscribedInThisSession(subscription: PushSubscription | null): Promise<boolean> {
  if (!subscription) return false;
  const { endpoints } = await apiJson<SessionSubscriptions>('/api/push/subscriptions');
  return endpoints.includes(subscription.endpoint);
}

/**
 * What the browser's own refusal means, in words a traveler can act on (a message id); undefined for
 * errors of the app's API, which the error grammar explains. `retry` says whether trying again can help.
 */
export function browserPushProblem(error: unknown): { message: MessageId; retry: boolean } | undefined {
  if (!(error instanceof DOMException)) return undefined;
  if (error.name === 'NotAllowedError') return { message: 'notices.push.notAllowed', retry: false };
  return { message: 'notices.push.unreachable', retry: true };
}

/** Opt-in to alerts from the browser (Web Push) for when Wayfare is not open. */
export function PushOptIn() {
  const t = useT();
  const [state, setState] = useState<PushState>(() =>
    !pushSupported() ? 'unsupported' : Notification.permission === 'denied' ? 'denied' : 'checking',
  );
  const [error, setError] = useState<unknown>(null);
  const browserProblem = browserPushProblem(error);

  useEffect(() => {
    if (!pushSupported() || Notification.permission === 'denied') return;
    currentSubscription()
      .then(subscribedInThisSession)
      .then((on) => setState(on ? 'on' : 'off'))
      .catch(() => setState('off'));
  }, []);

  const enable = async () => {
    setError(null);
    setState('working');
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setState(permission === 'denied' ? 'denied' : 'off');
        return;
      }
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      const registration = await navigator.serviceWorker.ready;
      const { publicKey } = await apiJson<PublicKey>('/api/push/public-key');
      // A subscription another session left behind is replaced: its endpoint starts nothing new here.
      await (await registration.pushManager.getSubscription())?.unsubscribe();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(publicKey),
      });
      await apiSend('/api/push/subscriptions', { method: 'POST', body: subscription.toJSON() });
      setState('on');
    } catch (caught) {
      setError(caught);
      setState('off');
    }
  };

  const disable = async () => {
    setError(null);
    setState('working');
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await apiSend('/api/push/subscriptions', {
          method: 'DELETE',
          body: { endpoint: subscription.endpoint },
        });
        await subscription.unsubscribe();
      }
      setState('off');
    } catch (caught) {
      setError(caught);
      setState('on');
    }
  };

  return (
    <section className="card stack-sm" aria-labelledby="push-title">
      <h2 id="push-title">{t('notices.push.title')}</h2>
      <p className="muted">{t('notices.push.explanation')}</p>
      {state === 'unsupported' && <p>{t('notices.push.unsupported')}</p>}
      {state === 'denied' && <p>{t('notices.push.denied')}</p>}
      <div className="row" aria-live="polite">
        {(state === 'off' || (state === 'working' && !error)) && (
          <button
            type="button"
            className="button"
            onClick={() => void enable()}
            disabled={state === 'working'}
          >
            {t('notices.push.turnOn')}
          </button>
        )}
        {state === 'on' && (
          <>
            <span className="chip chip-success">{t('notices.push.on')}</span>
            <button type="button" className="button button-secondary" onClick={() => void disable()}>
              {t('notices.push.turnOff')}
            </button>
          </>
        )}
      </div>
      {error !== null &&
        (browserProblem ? (
          <div role="alert" className="stack-sm">
            <p>{t(browserProblem.message)}</p>
            {browserProblem.retry && (
              <button type="button" className="button button-secondary" onClick={() => void enable()}>
                {t('notices.error.tryAgain')}
              </button>
            )}
          </div>
        ) : (
          <ErrorNotice error={error} onRetry={() => void enable()} />
        ))}
    </section>
  );
}
