import { z } from 'zod';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';

/** An empty answer (204). */
export const NoContentSchema = z.null().describe('No content');

/** Route response schemas with the error envelope documented for every 4xx and 5xx. */
export function withErrorResponses<Success extends Record<number, unknown>>(
  success: Success,
): Success & { '4xx': typeof ErrorEnvelopeSchema; '5xx': typeof ErrorEnvelopeSchema } {
  return { ...success, '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema };
}

/**
 * The responses of a stream route: 200 is `text/event-stream` whose events (`events`, a union on the
 * event name) are written as they happen; a refusal before the stream opens is the error envelope.
 */
export function eventStreamResponses(events: z.ZodType) {
  return withErrorResponses({
    200: {
      description: 'An event stream: each item is one SSE event, its name in `event` and its JSON in `data`.',
      content: { 'text/event-stream': { schema: events } },
    },
  });
}

/** What a route validates of a request, by part. */
interface RequestSchemas {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
}

/**
 * A route's schema: its OpenAPI tag and summary, the request parts it validates, and its success
 * responses, with the error envelope documented for every 4xx and 5xx.
 */
export function routeSchema<Request extends RequestSchemas, Success extends Record<number, unknown>>(
  tag: string,
  summary: string,
  request: Request,
  success: Success,
) {
  return { tags: [tag], summary, ...request, response: withErrorResponses(success) };
}
