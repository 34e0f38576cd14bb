import { z } from 'zod';
import {
  StayFareSchema,
  StayFaresDoneSchema,
  StaySearchDoneSchema,
  StaySearchProgressSchema,
  StaySearchPropertySchema,
  StayStreamErrorSchema,
} from '../upstream/stays.ts';
import { TruncatedSchema } from './priced-stay-search.ts';

/**
 * The events of POST /api/stays/search as the browser reads them: the travel API's search events
 * relayed as they arrive, or `truncated` when the BFF ends the stream itself.
 */
export const StaySearchStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('property'), data: StaySearchPropertySchema }),
  z.object({ event: z.literal('progress'), data: StaySearchProgressSchema }),
  z.object({ event: z.literal('done'), data: StaySearchDoneSchema }),
  z.object({ event: z.literal('error'), data: StayStreamErrorSchema }),
  z.object({ event: z.literal('truncated'), data: TruncatedSchema }),
]);

/** The events of POST /api/stays/fares: one hotel's fares relayed, then `done`, `error` or `truncated`. */
export const StayFaresStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('fare'), data: StayFareSchema }),
  z.object({ event: z.literal('done'), data: StayFaresDoneSchema }),
  z.object({ event: z.literal('error'), data: StayStreamErrorSchema }),
  z.object({ event: z.literal('truncated'), data: TruncatedSchema }),
]);
