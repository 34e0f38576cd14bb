import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';

/** Route response schemas with the error envelope documented for every 4xx and 5xx. */
export function withErrorResponses<Success extends Record<number, unknown>>(
  success: Success,
): Success & { '4xx': typeof ErrorEnvelopeSchema; '5xx': typeof ErrorEnvelopeSchema } {
  return { ...success, '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema };
}
