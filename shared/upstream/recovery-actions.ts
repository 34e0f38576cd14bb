/**
 * Recovery actions of the spec (Errors > Recovery actions). The set is closed in /v1. A module without
 * zod, so that the SPA can tell an error envelope without loading a schema library.
 */
export const RECOVERY_ACTIONS = [
  'RETRY_NOW',
  'RETRY_LATER',
  'CHANGE_PAYMENT',
  'CHANGE_SELECTION',
  'CONTACT_SUPPORT',
  'BLOCKED',
  'FIX_INPUT',
] as const;
