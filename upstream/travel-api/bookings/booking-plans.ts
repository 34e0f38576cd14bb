import { randomUUID } from 'node:crypto';
import { zonedInstant } from '../time-zones.ts';
import type { RouteStop, SegmentRecord } from '../travelers/traveler-records.ts';
import type { FlightQuote, StayQuote } from './quote-store.ts';

/** A stay's check-in and check-out, in minutes after local midnight at the hotel. */
export const STAY_CHECK_IN_MINUTE = 15 * 60;
export const STAY_CHECK_OUT_MINUTE = 11 * 60;

/** A segment of the trip a booking adds, before the trip store gives it its trip and position. */
export type PlannedSegment = Omit<SegmentRecord, 'tripId' | 'position'>;

/** What booking a quote adds to the traveler's bookings and trips. */
export interface BookingPlan {
  title: string;
  tripTitle: string;
  startDate: string;
  endDate: string;
  location: { city: string; countryCode: string | null };
  /** A flight's cities in the order it reaches them, its origin first; none for a stay. */
  route?: RouteStop[];
  segments: PlannedSegment[];
}

/** The plan of a quoted flight offer or stay rate, its segments carrying the booking's reference. */
export function bookingPlan(quote: FlightQuote | StayQuote, reference: string): BookingPlan {
  return quote.kind === 'flight' ? flightPlan(quote, reference) : stayPlan(quote, reference);
}

function flightPlan(quote: FlightQuote, reference: string): BookingPlan {
  const { legs } = quote.offer;
  const first = legs[0]!;
  const last = legs[legs.length - 1]!;
  const segments: PlannedSegment[] = legs.flatMap((leg) =>
    leg.segments.map((flight) => ({
      segmentId: randomUUID(),
      kind: 'flight' as const,
      title: `${flight.origin.city} → ${flight.destination.city}`,
      status: 'SCHEDULED',
      origin: {
        code: flight.origin.code,
        name: flight.origin.name,
        city: flight.origin.city,
        timeZone: flight.origin.timeZone,
      },
      destination: {
        code: flight.destination.code,
        name: flight.destination.name,
        city: flight.destination.city,
        timeZone: flight.destination.timeZone,
      },
      scheduledDeparture: new Date(flight.departureTime),
      scheduledArrival: new Date(flight.arrivalTime),
      delayMinutes: 0,
      carrier: { code: flight.carrier.code, name: flight.carrier.name },
      serviceNumber: flight.flightNumber,
      terminal: null,
      gate: null,
      seat: null,
      bookingReference: reference,
    })),
  );
  return {
    title:
      legs.length === 2 && last.destination.code === first.origin.code
        ? `${first.origin.city} → ${first.destination.city} and back`
        : [...legs.map((leg) => leg.origin.city), last.destination.city].join(' → '),
    tripTitle: `${first.destination.city} trip`,
    startDate: first.departureTime.slice(0, 10),
    endDate: last.arrivalTime.slice(0, 10),
    location: { city: first.destination.city, countryCode: null },
    route: [...legs.map((leg) => leg.origin), last.destination].map(({ code, city }) => ({ code, city })),
    segments,
  };
}

function stayPlan(quote: StayQuote, reference: string): BookingPlan {
  const { property } = quote;
  const place = { code: null, name: property.name, city: property.city, timeZone: property.timeZone };
  return {
    title: property.name,
    tripTitle: `${property.city} trip`,
    startDate: quote.checkIn,
    endDate: quote.checkOut,
    location: { city: property.city, countryCode: property.countryCode },
    segments: [
      {
        segmentId: randomUUID(),
        kind: 'stay',
        title: property.name,
        status: 'SCHEDULED',
        origin: place,
        destination: place,
        scheduledDeparture: zonedInstant(quote.checkIn, STAY_CHECK_IN_MINUTE, property.timeZone),
        scheduledArrival: zonedInstant(quote.checkOut, STAY_CHECK_OUT_MINUTE, property.timeZone),
        delayMinutes: 0,
        carrier: null,
        serviceNumber: null,
        terminal: null,
        gate: null,
        seat: null,
        bookingReference: reference,
        address: property.address,
      },
    ],
  };
}
