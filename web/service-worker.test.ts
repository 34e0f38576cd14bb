import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { DELAYED_FLIGHT, LONDON } from '#shared/test-support/delayed-flight.ts';
import { bundleWorker } from '../scripts/service-worker-plugin.ts';

const ORIGIN = 'http://localhost:3000';
/** The push part of the worker, bundled as the build bundles it (its texts from the app's catalogs). */
const source = await bundleWorker(
  fileURLToPath(new URL('..', import.meta.url)),
  [],
  false,
  'web/service-worker/push-alerts.js',
);

interface FakeWindow {
  url: string;
  visibilityState: 'visible' | 'hidden';
  focused: boolean;
  postMessage: ReturnType<typeof vi.fn>;
  focus: () => Promise<FakeWindow>;
  navigate: ReturnType<typeof vi.fn>;
}

function fakeWindow(state: Partial<FakeWindow> = {}): FakeWindow {
  const window: FakeWindow = {
    url: `${ORIGIN}/bookings`,
    visibilityState: 'hidden',
    focused: false,
    postMessage: vi.fn(),
    focus: () => Promise.resolve(window),
    navigate: vi.fn(() => Promise.resolve(window)),
    ...state,
  };
  return window;
}

/** A window of the app that answers the worker's "was it shown live?" question with `shown`. */
function answeringWindow(shown: boolean, state: Partial<FakeWindow> = {}): FakeWindow {
  return fakeWindow({
    visibilityState: 'visible',
    postMessage: vi.fn((_question: unknown, ports: MessagePort[]) => ports[0]?.postMessage({ shown })),
    ...state,
  });
}

/** Runs timers at once, so a window that never answers is given up on without waiting. */
const immediateTimers = {
  setTimeout: (callback: () => void) => setImmediate(callback),
  clearTimeout: (handle: NodeJS.Immediate) => clearImmediate(handle),
};

/** Loads the push part of the worker into a fresh service-worker-like global and dispatches events to it. */
function loadWorker(
  windows: FakeWindow[],
  timers: object = { setTimeout, clearTimeout },
  globals: object = {},
) {
  const listeners = new Map<string, (event: unknown) => void>();
  const showNotification = vi.fn((_title: string, _options?: object) => Promise.resolve());
  const openWindow = vi.fn(() => Promise.resolve(null));
  const clients = {
    matchAll: vi.fn(() => Promise.resolve(windows)),
    openWindow,
    claim: () => Promise.resolve(),
  };
  const self = {
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    skipWaiting: () => Promise.resolve(),
    clients,
    registration: { showNotification },
    location: { origin: ORIGIN },
  };
  runInNewContext(source, { self, clients, URL, MessageChannel, ...timers, ...globals });
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    const pending: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...event, waitUntil: (promise: Promise<unknown>) => pending.push(promise) });
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
  };
  return { dispatch, showNotification, openWindow, clients };
}

const payload = {
  notificationId: 'n-1',
  title: 'Flight delayed',
  body: 'Your flight leaves 40 minutes late.',
  tag: 'n-1',
  url: '/trips/t-1/segment/s-1',
  severity: 'warning',
};
/** A delay as the BFF sends it: the travel API's English, the event's kind and its facts. */
const delay = {
  ...payload,
  title: 'CL 2568 is delayed',
  body: 'CL 2568 is delayed by 6 h 20 min.',
  eventType: 'SEGMENT_DELAYED',
  facts: {
    segment: { ...DELAYED_FLIGHT, destination: LONDON },
    previous: { delayMinutes: 0, gate: 'C31' },
  },
};
/** Cache Storage holding the traveler's saved profile (web/src/lib/private-cache.ts), in `locale`. */
function savedProfile(locale: string) {
  const profile = new Response(JSON.stringify({ locale }));
  return {
    keys: () => Promise.resolve(['wayfare-private:traveler-1', 'workbox-precache-v2']),
    open: (name: string) =>
      Promise.resolve({
        match: (path: string) =>
          Promise.resolve(
            name === 'wayfare-private:traveler-1' && path === '/api/profile' ? profile : undefined,
          ),
      }),
  };
}

const pushEvent = (data: unknown) => ({ data: { json: () => data } });

describe('service worker', () => {
  it('shows a system notification tagged with the notification id when no window is in view', async () => {
    const worker = loadWorker([fakeWindow({ visibilityState: 'hidden' })]);
    await worker.dispatch('push', pushEvent(payload));
    expect(worker.clients.matchAll).toHaveBeenCalledWith({ type: 'window', includeUncontrolled: true });
    expect(worker.showNotification).toHaveBeenCalledWith('Flight delayed', {
      body: payload.body,
      lang: 'en',
      tag: 'n-1',
      data: { url: '/trips/t-1/segment/s-1', notificationId: 'n-1' },
    });
  });

  it('shows nothing when a visible window of the app says it already showed the notification live', async () => {
    const other = answeringWindow(false);
    const shownThere = answeringWindow(true, { focused: false });
    const worker = loadWorker([other, shownThere]);
    await worker.dispatch('push', pushEvent(payload));
    expect(worker.showNotification).not.toHaveBeenCalled();
    expect(shownThere.postMessage).toHaveBeenCalledWith({ type: 'was-shown-live', notificationId: 'n-1' }, [
      expect.anything(),
    ]);
  });

  it('shows a system notification when the visible, focused windows did not show it live', async () => {
    const worker = loadWorker([answeringWindow(false, { focused: true })]);
    await worker.dispatch('push', pushEvent(payload));
    expect(worker.showNotification).toHaveBeenCalledTimes(1);
  });

  it('shows a system notification when a visible window does not answer in time', async () => {
    const silent = fakeWindow({ visibilityState: 'visible', focused: true });
    const worker = loadWorker([silent], immediateTimers);
    await worker.dispatch('push', pushEvent(payload));
    expect(silent.postMessage).toHaveBeenCalledTimes(1);
    expect(worker.showNotification).toHaveBeenCalledTimes(1);
  });

  it('decides pushes in the order they arrived, even when the first answer comes later', async () => {
    const answers: Array<() => void> = [];
    const slowFirst = fakeWindow({
      visibilityState: 'visible',
      postMessage: vi.fn((_question: unknown, ports: MessagePort[]) => {
        answers.push(() => ports[0]?.postMessage({ shown: false }));
        // Only the first question waits; any later one is answered at once.
        if (answers.length > 1) answers.at(-1)?.();
        else setTimeout(() => answers[0]?.(), 20);
      }),
    });
    const worker = loadWorker([slowFirst]);
    await Promise.all([
      worker.dispatch('push', pushEvent(payload)),
      worker.dispatch(
        'push',
        pushEvent({ ...payload, notificationId: 'n-2', tag: 'n-2', title: 'Gate changed' }),
      ),
    ]);
    expect(worker.showNotification.mock.calls.map(([title]) => title)).toEqual([
      'Flight delayed',
      'Gate changed',
    ]);
  });

  it('asks no hidden window, and shows the notification', async () => {
    const hidden = answeringWindow(true, { visibilityState: 'hidden' });
    const worker = loadWorker([hidden]);
    await worker.dispatch('push', pushEvent(payload));
    expect(hidden.postMessage).not.toHaveBeenCalled();
    expect(worker.showNotification).toHaveBeenCalledTimes(1);
  });

  it('still shows a notification for a push it cannot read', async () => {
    const worker = loadWorker([]);
    await worker.dispatch('push', {
      data: {
        json: () => {
          throw new SyntaxError('bad');
        },
      },
    });
    expect(worker.showNotification).toHaveBeenCalledTimes(1);
    expect(worker.showNotification.mock.calls[0]?.[1]).toMatchObject({
      body: 'You have a new travel update.',
    });
  });

  it('says a push it cannot read in the language of the traveler’s saved profile', async () => {
    const worker = loadWorker([], { setTimeout, clearTimeout }, { caches: savedProfile('es-ES') });
    await worker.dispatch('push', { data: null });
    expect(worker.showNotification).toHaveBeenCalledWith(
      'Wayfare',
      expect.objectContaining({ body: 'Tienes una novedad sobre tu viaje.', tag: 'wayfare-update' }),
    );
  });

  it('writes a push’s notification in the language of the traveler’s profile, from its facts', async () => {
    const worker = loadWorker([]);
    await worker.dispatch('push', pushEvent({ ...delay, locale: 'es-ES' }));
    await worker.dispatch('push', pushEvent({ ...delay, locale: 'en-US' }));
    expect(worker.showNotification.mock.calls.map(([title, options]) => [title, options])).toEqual([
      [
        'CL 2568 se retrasa 6h 20min',
        expect.objectContaining({
          body: 'Boston → Londres: nueva salida 16:00 (prevista 9:40), llegada 19:15.',
          lang: 'es',
        }),
      ],
      [
        'CL 2568 is delayed by 6h 20m',
        expect.objectContaining({
          body: 'Boston → London: new departure 4:00 PM (scheduled 9:40 AM), arriving 7:15 PM.',
          lang: 'en',
        }),
      ],
    ]);
  });

  it('writes a push that names no locale in the language of the traveler’s saved profile', async () => {
    const worker = loadWorker([], { setTimeout, clearTimeout }, { caches: savedProfile('es-ES') });
    await worker.dispatch('push', pushEvent(delay));
    expect(worker.showNotification).toHaveBeenCalledWith(
      'CL 2568 se retrasa 6h 20min',
      expect.objectContaining({ lang: 'es' }),
    );
  });

  it('opens the deep link inside the app on click, in a new window when none is open', async () => {
    const worker = loadWorker([]);
    const close = vi.fn();
    await worker.dispatch('notificationclick', {
      notification: { close, data: { url: 'wayfare://trips/t-9/segment/s-9' } },
    });
    expect(close).toHaveBeenCalled();
    expect(worker.openWindow).toHaveBeenCalledWith(`${ORIGIN}/trips/t-9/segment/s-9`);
  });

  it('focuses and navigates an open window of the app on click, and never leaves the app', async () => {
    const open = fakeWindow();
    const worker = loadWorker([open]);
    await worker.dispatch('notificationclick', {
      notification: { close: vi.fn(), data: { url: '//evil.example/phish' } },
    });
    expect(open.navigate).toHaveBeenCalledWith(`${ORIGIN}/`);
    expect(worker.openWindow).not.toHaveBeenCalled();
  });
});
