import { z } from 'zod';
import { ErrorEnvelopeSchema } from '../upstream/error-envelope.ts';
import {
  StayFareSchema,
  StaySearchDoneSchema,
  StaySearchProgressSchema,
  StaySearchPropertySchema,
} from '../upstream/stays.ts';

// The events' names, in a module of their own that the SPA loads without zod.
export { PRICED_STAY_SEARCH_EVENTS } from './priced-stay-search-names.ts';

/** Data of `event: property`. */
export const PricedStaySearchPropertySchema = StaySearchPropertySchema;
/** Data of `event: progress`. */
export const PricedStaySearchProgressSchema = StaySearchProgressSchema;
export type PricedStaySearchProgress = z.infer<typeof PricedStaySearchProgressSchema>;

/** Data of `event: fare`: the property it prices (its searchSolutionId) and the rate. */
export const PricedStaySearchFareSchema = z.looseObject({
  searchSolutionId: z.uuid(),
  fare: StayFareSchema,
});
export type PricedStaySearchFare = z.infer<typeof PricedStaySearchFareSchema>;

/** Data of `event: property-end`. */
export const PricedStaySearchPropertyEndSchema = z.discriminatedUnion('outcome', [
  z.looseObject({
    searchSolutionId: z.uuid(),
    outcome: z.literal('priced'),
    fareCount: z.number().int().min(1),
  }),
  z.looseObject({ searchSolutionId: z.uuid(), outcome: z.literal('no-rooms') }),
  z.looseObject({
    searchSolutionId: z.uuid(),
    outcome: z.literal('failed'),
    /** Why: the travel API's envelope (PROVIDER_ERROR, RATE_LIMIT_EXCEEDED...) or the BFF's own. */
    error: ErrorEnvelopeSchema,
  }),
]);
export type PricedStaySearchPropertyEnd = z.infer<typeof PricedStaySearchPropertyEndSchema>;

/**
 * Why a stream ended without its complete answer: `upstream-ended` (the search closed early),
 * `upstream-failed` (its connection broke), `upstream-silent` (it sent nothing for too long),
 * `server-shutdown` (the BFF is going away). The same reasons as the relays' `truncated` event.
 */
export const TRUNCATED_REASONS = [
  'upstream-ended',
  'upstream-failed',
  'upstream-silent',
  'server-shutdown',
] as const;
export const TruncatedSchema = z.looseObject({ reason: z.string() });
export type Truncated = z.infer<typeof TruncatedSchema>;

/** Data of `event: search-end`: the travel API's `done` of the search, or why the search stopped early. */
export const PricedStaySearchSearchEndSchema = z.discriminatedUnion('outcome', [
  StaySearchDoneSchema.extend({ outcome: z.literal('done') }),
  z.looseObject({ outcome: z.literal('truncated'), reason: z.string() }),
]);
export type PricedStaySearchSearchEnd = z.infer<typeof PricedStaySearchSearchEndSchema>;

/** Data of `event: done`: how the properties found ended. */
export const PricedStaySearchDoneSchema = z.looseObject({
  propertyCount: z.number().int().min(0),
  priced: z.number().int().min(0),
  noRooms: z.number().int().min(0),
  failed: z.number().int().min(0),
});
export type PricedStaySearchDone = z.infer<typeof PricedStaySearchDoneSchema>;

/** Data of `event: error`: the error envelope. */
export const PricedStaySearchErrorSchema = ErrorEnvelopeSchema;

/** Every event of the stream, for the OpenAPI document (the stream's items as `{ event, data }`). */
export const PricedStaySearchEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('property'), data: PricedStaySearchPropertySchema }),
  z.object({ event: z.literal('progress'), data: PricedStaySearchProgressSchema }),
  z.object({ event: z.literal('fare'), data: PricedStaySearchFareSchema }),
  z.object({ event: z.literal('property-end'), data: PricedStaySearchPropertyEndSchema }),
  z.object({ event: z.literal('search-end'), data: PricedStaySearchSearchEndSchema }),
  z.object({ event: z.literal('done'), data: PricedStaySearchDoneSchema }),
  z.object({ event: z.literal('truncated'), data: TruncatedSchema }),
  z.object({ event: z.literal('error'), data: PricedStaySearchErrorSchema }),
]);
