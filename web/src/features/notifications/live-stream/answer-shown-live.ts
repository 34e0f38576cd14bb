import { checkedOnArrival } from '../../../lib/checked-on-arrival.ts';

/**
 * Answers the service worker's questions (shown-live-question.ts) while this window is open: shown when
 * the page is visible and `shownLive` knows the notification. Returns the function that stops answering.
 */
export function answerShownLive(shownLive: (notificationId: string) => boolean): () => void {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!container) return () => undefined;
  let answering = true;
  // The question's schema loads with the worker's first message (shown-live-question.ts).
  const onMessage = checkedOnArrival(
    async () => (await import('./shown-live-question.ts')).ShownLiveQuestionSchema,
    (event: MessageEvent<unknown>) => event.data,
    (question, event) => {
      const port = event.ports[0];
      if (!port || !answering) return;
      const shown = document.visibilityState === 'visible' && shownLive(question.notificationId);
      port.postMessage({ shown });
    },
  );
  container.addEventListener('message', onMessage);
  // Messages from the worker wait in a queue until the page starts taking them.
  container.startMessages();
  return () => {
    answering = false;
    container.removeEventListener('message', onMessage);
  };
}
