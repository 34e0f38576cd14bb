import { z } from 'zod';
import { plainText } from '../plain-text.ts';

/** Path parameters of POST /api/notifications/:id/read. */
export const NotificationParamsSchema = z.object({
  id: plainText().trim().min(1).max(100),
});
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;
