// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export { ProfileSchema } from '../upstream/profile.ts';
export type { Profile, ProfilePatch } from '../upstream/profile.ts';
