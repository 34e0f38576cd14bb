import { z } from 'zod';
import { plainText } from '../plain-text.ts';

const VersionSchema = z.string().regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}$/, 'Expected a version such as 1.4.2');

/** Query of GET /v1/app/update-check: the client's version, when it sends one. */
export const UpdateCheckQuerySchema = z.object({ currentVersion: VersionSchema.optional() });

/**
 * Response of GET /v1/app/update-check. updateAvailable and updateRequired compare `currentVersion` with
 * the latest and the minimum version; without it both are false.
 */
export const UpdateCheckSchema = z.looseObject({
  latestVersion: z.string(),
  minimumVersion: z.string(),
  updateAvailable: z.boolean(),
  updateRequired: z.boolean(),
  releaseNotes: z.string().nullable(),
  releasedAt: z.iso.datetime(),
});
export type UpdateCheck = z.infer<typeof UpdateCheckSchema>;

/** Body of PUT /admin/app-release (stand-in admin API): announce a new version. */
export const AppReleaseSchema = z.object({
  latestVersion: VersionSchema,
  minimumVersion: VersionSchema.optional(),
  releaseNotes: plainText({ lines: true }).max(2000).nullable().optional(),
});
export type AppRelease = z.infer<typeof AppReleaseSchema>;

/** Compares two dotted versions numerically: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
