import { z } from 'zod';

/** GET /api/calendar-feed: whether the traveler's calendar feed is on, and since when its address works. */
export const CalendarFeedStatusSchema = z.object({
  enabled: z.boolean(),
  createdAt: z.iso.datetime().nullable(),
});
export type CalendarFeedStatus = z.infer<typeof CalendarFeedStatusSchema>;

/**
 * POST /api/calendar-feed: a new address for the feed (turning it on, or rotating it, which revokes the
 * earlier one). The address is shown this once: only a hash of it is kept.
 */
export const CalendarFeedAddressSchema = z.object({
  url: z.url(),
  createdAt: z.iso.datetime(),
});
export type CalendarFeedAddress = z.infer<typeof CalendarFeedAddressSchema>;
