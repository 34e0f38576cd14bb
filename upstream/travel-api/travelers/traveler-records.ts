import type { SegmentPlace } from '#shared/upstream/trips.ts';

/** A segment as stored: instants in UTC, shown in each place's local time. */
export interface SegmentRecord {
  segmentId: string;
  tripId: string;
  position: number;
  kind: 'flight' | 'stay' | 'rail' | 'car';
  title: string;
  status: string;
  origin: SegmentPlace;
  destination: SegmentPlace;
  scheduledDeparture: Date;
  scheduledArrival: Date;
  delayMinutes: number;
  carrier: { code: string; name: string } | null;
  serviceNumber: string | null;
  terminal: string | null;
  gate: string | null;
  seat: string | null;
  /** The coach of a train seat; absent or null for other kinds. */
  coach?: string | null;
  bookingReference: string;
  /** The street address of a booked stay's hotel, as the stay inventory gives it; absent for other kinds. */
  address?: string | null;
}

export interface TripRecord {
  tripId: string;
  title: string;
  startDate: string;
  endDate: string;
  segments: SegmentRecord[];
}

/** A place a flight or train booking goes through, as the airport data names it. */
export interface RouteStop {
  code: string | null;
  city: string;
}

export interface BookingRecord {
  bookingId: string;
  reference: string;
  vertical: string;
  status: string;
  title: string;
  startDate: string;
  endDate: string;
  tripId: string | null;
  segmentId: string | null;
  city: string;
  countryCode: string | null;
  /** A flight's or train's origin and destination; null for a stay or a car. */
  route: RouteStop[] | null;
  totalAmount: number;
  currency: string;
  bookingProfile: boolean;
  bookedAt: Date;
}

export interface ProfileRecord {
  id: string;
  email: string | null;
  name: string | null;
  homeAirport: string | null;
  currency: string;
  locale: string;
  bookingProfile: boolean;
  loyaltyPrograms: { program: string; memberNumber: string }[];
}

export interface GeneratedTraveler {
  profile: ProfileRecord;
  trips: TripRecord[];
  bookings: BookingRecord[];
}
