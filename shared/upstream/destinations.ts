import { z } from 'zod';
import { plainText } from '../plain-text.ts';
import { LocaleSchema } from './locale.ts';

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const countryCode = z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 country code');

/** A city to search stays in (stay search form). */
export const StayCityDestinationSchema = z.looseObject({
  type: z.literal('city'),
  cityId: plainText().min(1).max(100),
  name: plainText().min(1).max(200),
  countryCode,
  latitude,
  longitude,
});
export type StayCityDestination = z.infer<typeof StayCityDestinationSchema>;

/**
 * A named property from the stay autocomplete (the direct-property path of stay fares). propertyId is
 * the raw autocomplete id, not the service UUID the search stream yields.
 */
export const StayPropertyDestinationSchema = z.looseObject({
  type: z.literal('property'),
  propertyId: plainText().min(1).max(100),
  name: plainText().min(1).max(200),
  city: plainText().min(1).max(200),
  countryCode,
  latitude,
  longitude,
});
export type StayPropertyDestination = z.infer<typeof StayPropertyDestinationSchema>;

export const StayDestinationSchema = z.discriminatedUnion('type', [
  StayCityDestinationSchema,
  StayPropertyDestinationSchema,
]);
export type StayDestination = z.infer<typeof StayDestinationSchema>;

export const STAY_DESTINATIONS_DEFAULT_LIMIT = 10;
export const STAY_DESTINATIONS_MAX_LIMIT = 25;

/** Query of GET /v1/stays/destinations. */
export const StayDestinationsQuerySchema = z.object({
  query: plainText().trim().min(2).max(100),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(STAY_DESTINATIONS_MAX_LIMIT)
    .default(STAY_DESTINATIONS_DEFAULT_LIMIT),
  /** The traveler's locale (additive): cities match and are named in its language as well as English. */
  locale: LocaleSchema.optional(),
});
export type StayDestinationsQuery = z.infer<typeof StayDestinationsQuerySchema>;

/**
 * Response of GET /v1/stays/destinations: cities first, then properties. Items of an unknown future
 * type are tolerated by clients that parse items one by one (see parseStayDestinations).
 */
export const StayDestinationsResponseSchema = z.looseObject({
  items: z.array(z.looseObject({ type: z.string() })),
});
export type StayDestinationsResponse = z.infer<typeof StayDestinationsResponseSchema>;

/** Keeps the destinations this client understands and drops items of types added later to /v1. */
export function parseStayDestinations(response: unknown): StayDestination[] {
  const { items } = StayDestinationsResponseSchema.parse(response);
  return items.flatMap((item) => {
    const parsed = StayDestinationSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
