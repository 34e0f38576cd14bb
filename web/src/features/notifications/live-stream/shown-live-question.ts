import { z } from 'zod';

/**
 * The service worker's question before it shows a push (web/service-worker/push-alerts.js): did this window already
 * show the notification live? Asked over a MessageChannel; the answer goes back on its port.
 */
export const ShownLiveQuestionSchema = z.object({
  type: z.literal('was-shown-live'),
  notificationId: z.string(),
});
