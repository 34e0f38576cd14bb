// The spec's recovery actions, without the envelope's schema (the SPA reads envelopes without zod).
export { RECOVERY_ACTIONS } from '../upstream/recovery-actions.ts';
