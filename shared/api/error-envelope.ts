// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export { ErrorEnvelopeSchema } from '../upstream/error-envelope.ts';
export type { ErrorBody, ErrorDetail, RecoveryAction } from '../upstream/error-envelope.ts';
