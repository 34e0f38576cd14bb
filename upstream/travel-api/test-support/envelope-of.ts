import { ErrorEnvelopeSchema, type ErrorBody } from '#shared/upstream/error-envelope.ts';

/** A response's status and its error, parsed as the spec's envelope (the parse fails the test otherwise). */
export async function envelopeOf(response: Response): Promise<{ status: number; error: ErrorBody }> {
  return { status: response.status, error: ErrorEnvelopeSchema.parse(await response.json()).error };
}
