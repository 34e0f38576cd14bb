import type {
  Airport,
  AirportRef,
  Baggage,
  Carrier,
  FlightOffer,
  FlightOfferLeg,
  FlightSearchResponse,
  FlightSegment,
  ParsedFlightSearchRequest,
} from '#shared/upstream/flights.ts';
import { AIRCRAFT, CARRIERS } from '../inventory/carriers.ts';
import { distanceKm, flightMinutes } from '../inventory/geo.ts';
import { fromEuros } from '../money.ts';
import { createRandom, type Random } from '../random.ts';
import { toLocalIso, zonedInstant } from '../time-zones.ts';

const CABIN_FACTOR: Record<string, number> = { economy: 1, premium_economy: 1.7, business: 3.8, first: 6.5 };
const MAX_OFFERS = 12;
const OFFER_LIFETIME_MS = 30 * 60_000;

export interface FlightLegInput {
  origin: Airport;
  destination: Airport;
  date: string;
}

interface LegOption {
  leg: FlightOfferLeg;
  carriers: Carrier[];
  priceEur: number;
}

export interface SearchFlightsInput {
  seed: string;
  request: ParsedFlightSearchRequest;
  legs: readonly FlightLegInput[];
  hubs: readonly Airport[];
  now: Date;
}

/**
 * Offers for an itinerary, deterministic for (seed, route, date, cabin): nonstop flights where the distance
 * allows, one-stop connections through hubs, local times in each airport's zone, prices by distance and
 * cabin for every passenger. Cheapest first.
 */
export function searchFlights({ seed, request, legs, hubs, now }: SearchFlightsInput): FlightSearchResponse {
  const options = legs.map((leg) =>
    legOptions(
      createRandom(seed, 'flights', leg.origin.code, leg.destination.code, leg.date, request.cabinClass),
      leg,
      request.cabinClass,
      hubs,
    ),
  );
  const offerRandom = createRandom(
    seed,
    'offers',
    JSON.stringify(request),
    Math.floor(now.getTime() / OFFER_LIFETIME_MS),
  );
  const count = options.some((list) => list.length === 0)
    ? 0
    : Math.min(MAX_OFFERS, Math.max(...options.map((list) => list.length)));
  const { adults, children, infants } = request.passengers;
  const passengerFactor = adults + children * 0.75 + infants * 0.1;
  const offers: FlightOffer[] = [];
  for (let index = 0; index < count; index++) {
    const chosen = options.map((list) => list[index % list.length] as LegOption);
    const perAdultEur = chosen.reduce((sum, option) => sum + option.priceEur, 0);
    const premium = request.cabinClass === 'business' || request.cabinClass === 'first';
    offers.push({
      offerId: offerRandom.uuid(),
      legs: chosen.map((option) => option.leg),
      cabinClass: request.cabinClass,
      totalPrice: {
        amount: fromEuros(perAdultEur * passengerFactor, request.currency),
        currency: request.currency,
      },
      pricePerAdult: { amount: fromEuros(perAdultEur, request.currency), currency: request.currency },
      carriers: uniqueCarriers(chosen.flatMap((option) => option.carriers)),
      fareConditions: {
        refundable: premium || offerRandom.chance(0.2),
        changeable: premium || request.cabinClass === 'premium_economy' || offerRandom.chance(0.5),
      },
      baggage: baggageOf(request.cabinClass, premium),
      seatsLeft: offerRandom.int(1, 9),
      expiresAt: new Date(now.getTime() + OFFER_LIFETIME_MS).toISOString(),
    });
  }
  offers.sort((a, b) => a.totalPrice.amount - b.totalPrice.amount);
  return { searchId: offerRandom.uuid(), currency: request.currency, offers };
}

/** Bags per passenger: a cabin bag always, checked bags from premium economy up. */
function baggageOf(cabin: string, premium: boolean): Baggage {
  if (cabin === 'first') return { cabinBags: 2, checkedBags: 3, checkedBagKg: 32 };
  if (premium) return { cabinBags: 2, checkedBags: 2, checkedBagKg: 32 };
  if (cabin === 'premium_economy') return { cabinBags: 1, checkedBags: 2, checkedBagKg: 23 };
  return { cabinBags: 1, checkedBags: 0, checkedBagKg: 0 };
}

function legOptions(
  random: Random,
  leg: FlightLegInput,
  cabin: string,
  hubs: readonly Airport[],
): LegOption[] {
  const direct = distanceKm(leg.origin, leg.destination);
  const options: LegOption[] = [];
  const nonstops = direct < 13_000 ? random.int(direct < 1500 ? 3 : 2, direct < 1500 ? 6 : 4) : 0;
  for (let i = 0; i < nonstops; i++) {
    const carrier = random.pick(CARRIERS);
    const segment = flight(
      random,
      carrier,
      leg.origin,
      leg.destination,
      zonedInstant(leg.date, departureMinute(random), leg.origin.timeZone),
      cabin,
    );
    options.push(option(random, [segment], direct, cabin));
  }
  const viaHub = (hub: Airport): number => distanceKm(leg.origin, hub) + distanceKm(hub, leg.destination);
  const candidates = hubs
    .filter(
      (hub) =>
        hub.code !== leg.origin.code &&
        hub.code !== leg.destination.code &&
        distanceKm(leg.origin, hub) > 250 &&
        distanceKm(hub, leg.destination) > 250,
    )
    .sort((a, b) => viaHub(a) - viaHub(b));
  const reasonable = candidates.filter((hub) => viaHub(hub) < direct * 1.3);
  // Where no nonstop flies, the two best hubs still connect, however long the detour.
  const connections = reasonable.length > 0 || nonstops > 0 ? reasonable : candidates.slice(0, 2);
  const oneStops = direct > 400 && connections.length > 0 ? random.int(2, 6) : 0;
  for (let i = 0; i < oneStops; i++) {
    const hub = random.pick(connections);
    const carrier = random.pick(CARRIERS);
    const first = flight(
      random,
      carrier,
      leg.origin,
      hub,
      zonedInstant(leg.date, departureMinute(random), leg.origin.timeZone),
      cabin,
    );
    const layover = random.int(11, 36) * 5;
    const second = flight(
      random,
      random.chance(0.8) ? carrier : random.pick(CARRIERS),
      hub,
      leg.destination,
      new Date(Date.parse(first.arrivalTime) + layover * 60_000),
      cabin,
    );
    options.push(
      option(random, [first, second], distanceKm(leg.origin, hub) + distanceKm(hub, leg.destination), cabin),
    );
  }
  return options.sort((a, b) => a.priceEur - b.priceEur);
}

function departureMinute(random: Random): number {
  return random.int(6 * 12, 22 * 12) * 5;
}

function flight(
  random: Random,
  carrier: Carrier,
  from: Airport,
  to: Airport,
  departure: Date,
  cabin: string,
): FlightSegment {
  const km = distanceKm(from, to);
  const minutes = flightMinutes(km);
  const fleet = km < 900 ? AIRCRAFT.regional : km < 4500 ? AIRCRAFT.narrow : AIRCRAFT.wide;
  return {
    carrier,
    flightNumber: `${carrier.code} ${random.int(10, 2999)}`,
    origin: airportRef(from),
    destination: airportRef(to),
    departureTime: toLocalIso(departure, from.timeZone),
    arrivalTime: toLocalIso(new Date(departure.getTime() + minutes * 60_000), to.timeZone),
    durationMinutes: minutes,
    aircraft: random.pick(fleet),
    cabinClass: cabin,
  };
}

function option(random: Random, segments: FlightSegment[], km: number, cabin: string): LegOption {
  const first = segments[0] as FlightSegment;
  const last = segments[segments.length - 1] as FlightSegment;
  const stops = segments.length - 1;
  const priceEur =
    (45 + km * 0.085) * (CABIN_FACTOR[cabin] ?? 1) * (stops > 0 ? 0.82 : 1) * (0.75 + random.next() * 0.6);
  return {
    leg: {
      origin: first.origin,
      destination: last.destination,
      departureTime: first.departureTime,
      arrivalTime: last.arrivalTime,
      durationMinutes: Math.round((Date.parse(last.arrivalTime) - Date.parse(first.departureTime)) / 60_000),
      stops,
      segments,
    },
    carriers: uniqueCarriers(segments.map((segment) => segment.carrier)),
    priceEur,
  };
}

function airportRef(airport: Airport): AirportRef {
  return { code: airport.code, name: airport.name, city: airport.city, timeZone: airport.timeZone };
}

function uniqueCarriers(carriers: readonly Carrier[]): Carrier[] {
  return [...new Map(carriers.map((carrier) => [carrier.code, carrier])).values()];
}
