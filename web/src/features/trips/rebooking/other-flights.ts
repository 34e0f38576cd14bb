import type { FlightOffer } from '#shared/api/flights.ts';
import type { Segment } from '#shared/api/trips.ts';
import { keepsTrip } from '../connection-risks.ts';

/** A flight that could replace a broken leg, judged against the rest of the trip and the booking it replaces. */
export interface OtherFlight {
  offer: FlightOffer;
  /** Lands in time for everything the leg leads to (docs/decisions.md: "What a delay puts at risk"). */
  keepsTrip: boolean;
  /** Its price less the replaced booking's, when both are in one currency. */
  difference: number | undefined;
}

/**
 * The offers of the leg's route that could replace it: not the leg's own flight, not one already gone;
 * those that keep the trip first, then the earliest arrival, then the cheapest.
 */
export function otherFlights(
  offers: readonly FlightOffer[],
  leg: Segment,
  segments: readonly Segment[],
  replacedPrice: { amount: number; currency: string } | undefined,
  now = Date.now(),
): OtherFlight[] {
  return offers
    .filter((offer) => {
      const [first] = offer.legs;
      if (!first || Date.parse(first.departureTime) <= now) return false;
      return !first.segments.some((flight) => flight.flightNumber === leg.serviceNumber);
    })
    .map((offer) => ({
      offer,
      keepsTrip: keepsTrip(offer.legs[0]!.arrivalTime, leg, segments),
      difference:
        replacedPrice && replacedPrice.currency === offer.totalPrice.currency
          ? offer.totalPrice.amount - replacedPrice.amount
          : undefined,
    }))
    .sort(
      (a, b) =>
        Number(b.keepsTrip) - Number(a.keepsTrip) ||
        Date.parse(a.offer.legs[0]!.arrivalTime) - Date.parse(b.offer.legs[0]!.arrivalTime) ||
        a.offer.totalPrice.amount - b.offer.totalPrice.amount,
    );
}

/** "BA 117 · BA 212": the flights of an offer's first leg, as a traveler names them. */
export function offerName(offer: FlightOffer): string {
  return (offer.legs[0]?.segments ?? []).map((flight) => flight.flightNumber).join(' · ');
}
