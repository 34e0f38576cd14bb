import { z } from 'zod';

/** Path parameters of POST /api/notifications/:id/read. */
export const NotificationParamsSchema = z.object({
  id: z.string().trim().min(1).max(100),
});
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;
