// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export { SegmentDetailsSchema, TripDetailsSchema, TripsPageSchema } from '../upstream/trips.ts';
export type { Segment, SegmentDetails, SegmentPlace, TripOverview } from '../upstream/trips.ts';
