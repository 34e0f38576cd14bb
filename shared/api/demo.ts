import { z } from 'zod';

/** GET /api/demo/status: whether the demo panel may be shown (DEMO_MODE with the stand-in's admin API). */
export const DemoStatusSchema = z.object({ enabled: z.boolean() });
export type DemoStatus = z.infer<typeof DemoStatusSchema>;

export const DEMO_FAULT_DEFAULT_SECONDS = 60;
export const DEMO_FAULT_MAX_SECONDS = 600;

/**
 * Body of POST /api/demo/{expired-offer,provider-failure,rate-limit}: how long the fault lasts (for the
 * signed-in traveler's own requests).
 */
export const DemoFaultRequestSchema = z.object({
  seconds: z.number().int().min(5).max(DEMO_FAULT_MAX_SECONDS).default(DEMO_FAULT_DEFAULT_SECONDS),
});
export type DemoFaultRequest = z.input<typeof DemoFaultRequestSchema>;

/** Body of POST /api/demo/segment-delay: a delay on one of the signed-in traveler's upcoming segments. */
export const DemoSegmentDelayRequestSchema = z.object({
  minutes: z.number().int().min(5).max(600).default(45),
  /** A segment of the traveler's (from a trip page); the next upcoming flight when absent. */
  segmentId: z.uuid().optional(),
  /** Delay the next flight or train long enough to miss what follows it in its trip (minutes is then chosen). */
  breaksConnection: z.boolean().optional(),
});
export type DemoSegmentDelayRequest = z.input<typeof DemoSegmentDelayRequestSchema>;

/** The release notes a demo announcement can carry: one of the demo's own texts, chosen by id, never typed. */
export const DEMO_RELEASE_NOTES = ['faster-search', 'offline-trips', 'clearer-alerts'] as const;
export type DemoReleaseNotes = (typeof DEMO_RELEASE_NOTES)[number];

/** Body of POST /api/demo/app-update: announce a new version of the app to the signed-in traveler. */
export const DemoAppUpdateRequestSchema = z.object({
  latestVersion: z.string().regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}$/, 'Expected a version such as 1.4.2'),
  releaseNotes: z.enum(DEMO_RELEASE_NOTES).optional(),
});
export type DemoAppUpdateRequest = z.input<typeof DemoAppUpdateRequestSchema>;

/** Answer of every demo action: what was set off, and until when it lasts (null: until replaced). */
export const DemoActionResultSchema = z.object({
  action: z.string(),
  activeUntil: z.iso.datetime().nullable(),
  /** The segment a segment delay landed on, for a link to its page. */
  segment: z.object({ tripId: z.string(), segmentId: z.string() }).optional(),
});
export type DemoActionResult = z.infer<typeof DemoActionResultSchema>;
