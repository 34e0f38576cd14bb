import { z } from 'zod';

/**
 * The service worker's question before it shows a push (web/service-worker/push-alerts.js): did this window already
 * show the notification live? Asked over a MessageChannel; the answer goes back on its port.
 */
const ShownLiveQuestionSchema = z.object({ type: z.literal('was-shown-live'), notificationId: z.string() });

/**
 * Answers the service worker's questions while this window is open: shown when the page is visible
 * and `shownLive` knows the notification. Returns the function that stops answering.
 */
export function answerShownLive(shownLive: (notificationId: string) => boolean): () => void {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!container) return () => undefined;
  const onMessage = (event: MessageEvent<unknown>) => {
    const question = ShownLiveQuestionSchema.safeParse(event.data);
    const port = event.ports[0];
    if (!question.success || !port) return;
    const shown = document.visibilityState === 'visible' && shownLive(question.data.notificationId);
    port.postMessage({ shown });
  };
  container.addEventListener('message', onMessage);
  // Messages from the worker wait in a queue until the page starts taking them.
  container.startMessages();
  return () => container.removeEventListener('message', onMessage);
}
