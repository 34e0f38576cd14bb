import { z } from 'zod';
import { ErrorEnvelopeSchema } from './error-envelope.ts';
import { StayDestinationSchema, StayPropertyDestinationSchema } from './destinations.ts';
import { CURRENCIES } from './flight-values.ts';
import { MAX_ADULTS_PER_ROOM, MAX_CHILD_AGE, MAX_CHILDREN_PER_ROOM, MAX_ROOMS } from './stay-values.ts';

export {
  MAX_ADULTS_PER_ROOM,
  MAX_CHILD_AGE,
  MAX_CHILDREN_PER_ROOM,
  MAX_ROOMS,
  STAY_FARES_EVENTS,
  STAY_SEARCH_EVENTS,
} from './stay-values.ts';

/** Calendar date on the wire, YYYY-MM-DD (checkIn, checkOut). */
export const StayDateSchema = z.iso.date();

/** Occupancy of one room. */
export const StayRoomSchema = z.object({
  adults: z.number().int().min(1).max(MAX_ADULTS_PER_ROOM),
  childrenAges: z.array(z.number().int().min(0).max(MAX_CHILD_AGE)).max(MAX_CHILDREN_PER_ROOM).default([]),
});
export type StayRoom = z.infer<typeof StayRoomSchema>;
export type StayRoomInput = z.input<typeof StayRoomSchema>;

export const StayRoomsSchema = z.array(StayRoomSchema).min(1).max(MAX_ROOMS);

/** Who travels, when a stay search gives passengers instead of rooms. */
export const StayPassengersSchema = z.object({
  adults: z
    .number()
    .int()
    .min(1)
    .max(MAX_ROOMS * 2),
  childrenAges: z.array(z.number().int().min(0).max(MAX_CHILD_AGE)).max(MAX_CHILDREN_PER_ROOM).default([]),
});
export type StayPassengers = z.infer<typeof StayPassengersSchema>;

/**
 * The rooms a search with passengers stands for: one room per two adults (earlier rooms take the odd
 * adult), every child in the first room. A fares call after such a search sends these rooms.
 */
export function roomsFromPassengers(passengers: z.input<typeof StayPassengersSchema>): StayRoom[] {
  const roomCount = Math.ceil(passengers.adults / 2);
  return Array.from({ length: roomCount }, (_, index) => ({
    adults: Math.floor(passengers.adults / roomCount) + (index < passengers.adults % roomCount ? 1 : 0),
    childrenAges: index === 0 ? [...(passengers.childrenAges ?? [])] : [],
  }));
}

/** Order-insensitive comparison of two room lists (the same occupancies, in any order). */
export function sameRooms(left: readonly StayRoomInput[], right: readonly StayRoomInput[]): boolean {
  const canonical = (rooms: readonly StayRoomInput[]) =>
    rooms
      .map((room) => JSON.stringify([room.adults, [...(room.childrenAges ?? [])].sort((a, b) => a - b)]))
      .sort()
      .join('|');
  return left.length === right.length && canonical(left) === canonical(right);
}

/** Number of nights between two YYYY-MM-DD dates. */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86_400_000);
}

function checkOutAfterCheckIn(value: { checkIn: string; checkOut: string }, context: z.RefinementCtx): void {
  if (value.checkOut <= value.checkIn) {
    context.addIssue({
      code: 'custom',
      path: ['checkOut'],
      message: 'checkOut must be after checkIn',
      params: { rule: 'after_check_in' },
    });
  }
}

/**
 * Additive, optional on both stay requests: the currency the traveler reads prices in. Rates are quoted in
 * it when the service has an exchange rate for the hotel's own currency, with the hotel's own price beside
 * them (`propertyPrice`); without it, or without a rate, in the hotel's currency.
 */
export const StayCurrencySchema = z.enum(CURRENCIES);

/** Body of POST /v1/stays/search: a destination, the dates and either rooms or passengers. */
export const StaySearchRequestSchema = z
  .object({
    destination: StayDestinationSchema,
    checkIn: StayDateSchema,
    checkOut: StayDateSchema,
    rooms: StayRoomsSchema.optional(),
    passengers: StayPassengersSchema.optional(),
    bookingProfile: z.boolean().default(false),
    currency: StayCurrencySchema.optional(),
  })
  .superRefine(checkOutAfterCheckIn)
  .superRefine((value, context) => {
    if ((value.rooms === undefined) === (value.passengers === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['rooms'],
        message: 'Send either rooms or passengers, not both',
        params: { rule: 'exactly_one_of_rooms_passengers' },
      });
    }
  });
export type StaySearchRequest = z.infer<typeof StaySearchRequestSchema>;
export type StaySearchRequestInput = z.input<typeof StaySearchRequestSchema>;

/** The rooms a search request stands for, whether it sent rooms or passengers. */
export function searchRooms(request: StaySearchRequest): StayRoom[] {
  return request.rooms ?? roomsFromPassengers(request.passengers ?? { adults: 1 });
}

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256');

/**
 * Body of POST /v1/stays/fares. Exactly one path: searchSolutionId + propertyId (search-stream path)
 * or property (direct-property path); see faresPath. The dates, rooms and bookingProfile must equal
 * the preceding search's.
 */
export const StayFaresRequestSchema = z
  .object({
    searchSolutionId: z.uuid().optional(),
    propertyId: z.uuid().optional(),
    property: StayPropertyDestinationSchema.nullable().optional(),
    checkIn: StayDateSchema,
    checkOut: StayDateSchema,
    rooms: StayRoomsSchema,
    solutionKey: sha256Hex.optional(),
    bookingProfile: z.boolean().default(false),
    currency: StayCurrencySchema.optional(),
  })
  .superRefine(checkOutAfterCheckIn);
export type StayFaresRequest = z.infer<typeof StayFaresRequestSchema>;
export type StayFaresRequestInput = z.input<typeof StayFaresRequestSchema>;

export type FaresPath =
  | { kind: 'search'; searchSolutionId: unknown; propertyId: unknown }
  | { kind: 'property'; property: unknown }
  | { kind: 'both' }
  | { kind: 'neither'; missing: string[] };

const present = (value: unknown) => value !== undefined && value !== null;

/**
 * Which path a fares body takes, decided before field validation: the search-stream path needs both
 * searchSolutionId and propertyId; the direct-property path a non-null property. A body with parts of
 * both paths is `both`; with no complete path, `neither` (and the missing fields of a partial pair).
 */
export function faresPath(body: Readonly<Record<string, unknown>>): FaresPath {
  const hasSolution = present(body.searchSolutionId);
  const hasPropertyId = present(body.propertyId);
  const hasProperty = present(body.property);
  if (hasProperty && (hasSolution || hasPropertyId)) return { kind: 'both' };
  if (hasProperty) return { kind: 'property', property: body.property };
  if (hasSolution && hasPropertyId) {
    return { kind: 'search', searchSolutionId: body.searchSolutionId, propertyId: body.propertyId };
  }
  if (hasSolution) return { kind: 'neither', missing: ['propertyId'] };
  if (hasPropertyId) return { kind: 'neither', missing: ['searchSolutionId'] };
  return { kind: 'neither', missing: [] };
}

const money = z.number().nonnegative();
const currency = z.string().regex(/^[A-Z]{3}$/, 'ISO 4217 currency code');

/** A picture of the hotel: a data: URL or an address on the service's own origin, and its size in pixels. */
export const PropertyImageSchema = z.looseObject({
  url: z.string().min(1),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type PropertyImage = z.infer<typeof PropertyImageSchema>;

/** What a hotel is: the fields the search stream and the property details share. */
const propertyFacts = {
  name: z.string(),
  stars: z.number().int().min(1).max(5),
  address: z.string(),
  city: z.string(),
  countryCode: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  reviewScore: z.number().min(0).max(10),
  reviewCount: z.number().int().min(0),
  amenities: z.array(z.string()),
  thumbnail: z.looseObject({ palette: z.array(z.string()).min(1), monogram: z.string() }),
  /** Additive: older servers may omit it. */
  image: PropertyImageSchema.optional(),
};

/** Data of `event: property`: one property of the search, with the ids for a later fares call. */
export const StaySearchPropertySchema = z.looseObject({
  searchId: z.uuid(),
  searchSolutionId: z.uuid(),
  propertyId: z.uuid(),
  solutionKey: sha256Hex,
  ...propertyFacts,
  distanceKm: z.number().nonnegative(),
  priceFrom: z
    .looseObject({
      nightlyPrice: money,
      currency,
      /** Additive: the same price in the hotel's own currency, when it differs from `currency`. */
      propertyPrice: z.looseObject({ nightlyPrice: money, currency }).optional(),
    })
    .nullable(),
  /**
   * The hotel as the direct-property path of stay fares takes it (its raw autocomplete id), so any
   * hotel of a search can be priced again without the search. Additive: older servers may omit it.
   */
  destination: StayPropertyDestinationSchema.optional(),
});
export type StaySearchProperty = z.infer<typeof StaySearchPropertySchema>;

/** Path of GET /v1/stays/properties/:propertyId (additive): the hotel's raw autocomplete id. */
export const StayPropertyParamsSchema = z.object({
  propertyId: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[a-z0-9-]+-h\d{2}$/, 'a property autocomplete id'),
});

/** Answer of GET /v1/stays/properties/:propertyId: the hotel, its picture and the currency it prices in. */
export const StayPropertyDetailsSchema = z.looseObject({
  propertyId: z.string(),
  ...propertyFacts,
  currency,
  timeZone: z.string(),
});
export type StayPropertyDetails = z.infer<typeof StayPropertyDetailsSchema>;

/** Data of `event: progress`: how many properties have been sent of how many expected. */
export const StaySearchProgressSchema = z.looseObject({
  searchId: z.uuid(),
  received: z.number().int().min(0),
  expected: z.number().int().min(0),
});
export type StaySearchProgress = z.infer<typeof StaySearchProgressSchema>;

/** Data of `event: done` on the search stream: the search ids are valid until expiresAt. */
export const StaySearchDoneSchema = z.looseObject({
  searchId: z.uuid(),
  propertyCount: z.number().int().min(0),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type StaySearchDone = z.infer<typeof StaySearchDoneSchema>;

/** Data of `event: error` on both stay streams: the error envelope, ending the stream. */
export const StayStreamErrorSchema = ErrorEnvelopeSchema;
export type StayStreamError = z.infer<typeof StayStreamErrorSchema>;

/** Board types this service emits; the field is an open string. */
export const STAY_BOARD_TYPES = [
  'ROOM_ONLY',
  'BREAKFAST',
  'HALF_BOARD',
  'FULL_BOARD',
  'ALL_INCLUSIVE',
] as const;
export type KnownStayBoardType = (typeof STAY_BOARD_TYPES)[number];

/** Taxes and fees the hotel collects at the property, not part of the price paid when booking. */
export const DueAtPropertySchema = z.looseObject({
  amount: money,
  currency,
  description: z.string(),
  /**
   * Additive: what the description says, as values, for clients that write it in their traveler's
   * language: `city_tax` (the set is open) for `adults` adults and `nights` nights.
   */
  kind: z.string().optional(),
  adults: z.number().int().min(0).optional(),
  nights: z.number().int().min(0).optional(),
});
export type DueAtProperty = z.infer<typeof DueAtPropertySchema>;

/** A rate's cancellation rule: free until the deadline when refundable. */
export const StayCancellationSchema = z.looseObject({
  refundable: z.boolean(),
  freeCancellationUntil: z.iso.datetime({ offset: true }).nullable(),
});

/** Data of `event: fare`: one bookable rate of the property for the dates and rooms asked. */
export const StayFareSchema = z.looseObject({
  fareId: z.uuid(),
  propertyId: z.uuid(),
  searchSolutionId: z.uuid().nullable(),
  solutionKey: sha256Hex.nullable(),
  roomName: z.string(),
  bedType: z.string(),
  board: z.string(),
  cancellation: StayCancellationSchema,
  nightlyPrice: money,
  totalPrice: money,
  currency,
  nights: z.number().int().min(1),
  roomsLeft: z.number().int().min(1),
  /** A negotiated business-travel rate (bookingProfile false). */
  corporateRate: z.boolean(),
  /** Additive: the hotel's IANA time zone, in which its cancellation deadlines fall. */
  timeZone: z.string().optional(),
  /** Additive: taxes and fees due at the property on top of totalPrice. */
  dueAtProperty: DueAtPropertySchema.optional(),
  /**
   * Additive: the rate in the hotel's own currency, when the request asked for another `currency` and the
   * service converted the prices above into it.
   */
  propertyPrice: z.looseObject({ nightlyPrice: money, totalPrice: money, currency }).optional(),
});
export type StayFare = z.infer<typeof StayFareSchema>;

/** Data of `event: done` on the fares stream: a summary, not fares; fareCount 0 is the empty result. */
export const StayFaresDoneSchema = z.looseObject({
  fareCount: z.number().int().min(0),
});
export type StayFaresDone = z.infer<typeof StayFaresDoneSchema>;

/** Error codes of the fares stream's terminating `event: error`. */
export const STAY_STREAM_ERROR_CODES = ['MAX_NIGHTS_EXCEEDED', 'PROVIDER_ERROR'] as const;
