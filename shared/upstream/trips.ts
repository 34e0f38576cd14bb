import { z } from 'zod';
import { CarrierSchema } from './flights.ts';
import { OffsetPageQuerySchema, offsetPageSchema } from './pagination.ts';

/** Segment kinds the service gives; the set is open. */
export const SEGMENT_KINDS = ['flight', 'stay', 'rail', 'car'] as const;
/** Live statuses of a segment; the set is open. */
export const SEGMENT_STATUSES = [
  'SCHEDULED',
  'DELAYED',
  'CANCELLED',
  'DEPARTED',
  'ARRIVED',
  'COMPLETED',
] as const;
export type SegmentStatus = (typeof SEGMENT_STATUSES)[number];

export const SegmentPlaceSchema = z.looseObject({
  /** IATA code for airports, station or property code otherwise; null when there is none. */
  code: z.string().nullable(),
  name: z.string(),
  city: z.string(),
  timeZone: z.string(),
  /** The city's names by language (`{ en: 'London', es: 'Londres' }`; additive), when the service has them. */
  cityNames: z.record(z.string(), z.string()).optional(),
});
export type SegmentPlace = z.infer<typeof SegmentPlaceSchema>;

/**
 * One segment of a trip, as GET /v1/trips/:tripId/segments/:segmentId returns it. Times are local ISO 8601
 * with the place's UTC offset; the estimated times equal the scheduled ones while on time.
 */
export const SegmentSchema = z.looseObject({
  segmentId: z.uuid(),
  tripId: z.uuid(),
  kind: z.string(),
  title: z.string(),
  status: z.string(),
  origin: SegmentPlaceSchema,
  destination: SegmentPlaceSchema,
  scheduledDeparture: z.string(),
  scheduledArrival: z.string(),
  estimatedDeparture: z.string(),
  estimatedArrival: z.string(),
  delayMinutes: z.number().int(),
  carrier: CarrierSchema.nullable(),
  serviceNumber: z.string().nullable(),
  terminal: z.string().nullable(),
  gate: z.string().nullable(),
  /** The seat: "14C" on a flight; on a train the seat in its coach ("23"). */
  seat: z.string().nullable(),
  /** The coach of a train seat ("4"; additive); null for other kinds and an unassigned seat. */
  coach: z.string().nullable().optional(),
  bookingReference: z.string(),
  /** Street address of a stay or a car depot (additive); null for flights and rail. */
  address: z.string().nullable().optional(),
  updatedAt: z.iso.datetime(),
});
export type Segment = z.infer<typeof SegmentSchema>;

export const TripSummarySchema = z.looseObject({
  tripId: z.uuid(),
  title: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
});
export type TripSummary = z.infer<typeof TripSummarySchema>;

/** GET /v1/trips/:tripId/segments/:segmentId (additive): a segment with its trip. */
export const SegmentDetailsSchema = SegmentSchema.extend({ trip: TripSummarySchema });
export type SegmentDetails = z.infer<typeof SegmentDetailsSchema>;

export const SegmentParamsSchema = z.object({ tripId: z.uuid(), segmentId: z.uuid() });

/**
 * Where a trip stands as a whole (additive): CANCELLED when every segment is, COMPLETED when every segment
 * has ended, DISRUPTED while a segment still ahead is delayed or cancelled, otherwise ON_TRACK. The set is open.
 */
export const TRIP_STATUSES = ['ON_TRACK', 'DISRUPTED', 'CANCELLED', 'COMPLETED'] as const;

/** One trip in GET /v1/trips/page (additive): its dates, the places it goes and its overall status. */
export const TripOverviewSchema = TripSummarySchema.extend({
  status: z.string(),
  /** Cities the trip visits, in the order it reaches them, without the one it starts from. */
  cities: z.array(z.string()),
  /** Each of `cities`' names by language, index for index (additive); `{}` where the service has none. */
  cityNames: z.array(z.record(z.string(), z.string())).optional(),
  /** The kinds of its segments, in timeline order (flight, stay, car, rail). */
  segmentKinds: z.array(z.string()),
  /** Segments still ahead that are delayed or cancelled. */
  disruptedSegments: z.number().int().min(0),
});
export type TripOverview = z.infer<typeof TripOverviewSchema>;

export const TripsPageSchema = offsetPageSchema(TripOverviewSchema);
export type TripsPage = z.infer<typeof TripsPageSchema>;
export const TripsPageQuerySchema = OffsetPageQuerySchema;

/** GET /v1/trips/:tripId (additive): a trip with every segment, in timeline order. */
export const TripDetailsSchema = TripOverviewSchema.extend({ segments: z.array(SegmentSchema) });
export type TripDetails = z.infer<typeof TripDetailsSchema>;

export const TripParamsSchema = z.object({ tripId: z.uuid() });
