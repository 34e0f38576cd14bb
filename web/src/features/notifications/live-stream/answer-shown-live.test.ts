// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerShownLive } from './answer-shown-live.ts';

/** navigator.serviceWorker as far as the page uses it here: messages from the worker. */
function stubServiceWorkerContainer() {
  const container = Object.assign(new EventTarget(), { startMessages: vi.fn() });
  vi.stubGlobal('navigator', { ...navigator, serviceWorker: container });
  const ask = (data: unknown) => {
    const port = { postMessage: vi.fn() };
    container.dispatchEvent(Object.assign(new Event('message'), { data, ports: [port] }));
    return port.postMessage;
  };
  return { container, ask };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('answerShownLive', () => {
  // The question's schema loads with the worker's first message: the first answer comes once it is in,
  // the later ones at once.
  it('answers the service worker whether this page showed the notification live', async () => {
    const { container, ask } = stubServiceWorkerContainer();
    const stop = answerShownLive((id) => id === 'n-1');
    expect(container.startMessages).toHaveBeenCalled();

    const first = ask({ type: 'was-shown-live', notificationId: 'n-1' });
    await vi.waitFor(() => expect(first).toHaveBeenCalledWith({ shown: true }));
    expect(ask({ type: 'was-shown-live', notificationId: 'n-2' })).toHaveBeenCalledWith({ shown: false });
    stop();
    expect(ask({ type: 'was-shown-live', notificationId: 'n-1' })).not.toHaveBeenCalled();
  });

  it('says not shown while the page is hidden, and ignores other messages', async () => {
    const { ask } = stubServiceWorkerContainer();
    const stop = answerShownLive(() => true);
    const other = ask({ type: 'navigate', url: '/' });
    const first = ask({ type: 'was-shown-live', notificationId: 'n-1' });
    await vi.waitFor(() => expect(first).toHaveBeenCalledWith({ shown: true }));
    expect(other).not.toHaveBeenCalled();
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    expect(ask({ type: 'was-shown-live', notificationId: 'n-1' })).toHaveBeenCalledWith({ shown: false });
    vi.restoreAllMocks();
    stop();
  });

  it('answers nothing once stopped, even a question heard before', async () => {
    const { ask } = stubServiceWorkerContainer();
    const stop = answerShownLive(() => true);
    const asked = ask({ type: 'was-shown-live', notificationId: 'n-1' });
    stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).not.toHaveBeenCalled();
  });

  it('does nothing where the browser has no service workers', () => {
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: undefined });
    expect(() => answerShownLive(() => true)()).not.toThrow();
  });
});
