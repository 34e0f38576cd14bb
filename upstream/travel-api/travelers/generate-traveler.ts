import type { Airport } from '#shared/upstream/flights.ts';
import type { SegmentPlace } from '#shared/upstream/trips.ts';
import { CARRIERS } from '../inventory/carriers.ts';
import { distanceKm, flightMinutes } from '../inventory/geo.ts';
import { fromEuros } from '../money.ts';
import { createRandom, type Random } from '../random.ts';
import { derivedAddress } from '../stays/street-address.ts';
import { addDays, localDate, zonedInstant } from '../time-zones.ts';
import type {
  BookingRecord,
  GeneratedTraveler,
  ProfileRecord,
  SegmentRecord,
  TripRecord,
} from './traveler-records.ts';

/** The demo traveler with a long booking history (common wiring). */
export const LONG_HISTORY_TRAVELER_ID = '5f1c2a7e-0b1d-4c5e-9a01-000000000003';
const BUSINESS_TRAVELER_ID = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const PERSONAL_TRAVELER_ID = '5f1c2a7e-0b1d-4c5e-9a01-000000000002';

/** What a demo traveler's profile always is, whatever the seed and the day (the README's demo table). */
export interface DemoProfile {
  homeAirport: string;
  locale: string;
  currency: string;
  /** The traveler kind: true personal travel, false business travel. */
  bookingProfile: boolean;
  loyaltyPrograms: { program: string; memberNumber: string }[];
}

/** The demo travelers' fixed profiles, by traveler id: Alex Morgan, Sam Rivera, Jordan Lee. */
export const DEMO_PROFILES: Readonly<Record<string, DemoProfile>> = {
  [BUSINESS_TRAVELER_ID]: {
    homeAirport: 'LHR',
    locale: 'en-GB',
    currency: 'GBP',
    bookingProfile: false,
    loyaltyPrograms: [{ program: 'Wayfare Air Miles', memberNumber: '40218833' }],
  },
  [PERSONAL_TRAVELER_ID]: {
    homeAirport: 'BOS',
    locale: 'en-US',
    currency: 'USD',
    bookingProfile: true,
    loyaltyPrograms: [],
  },
  [LONG_HISTORY_TRAVELER_ID]: {
    homeAirport: 'AMS',
    locale: 'en-GB',
    currency: 'EUR',
    bookingProfile: false,
    loyaltyPrograms: [{ program: 'Northwind Airways Miles', memberNumber: '73350912' }],
  },
};

const RAIL_MAX_KM = 650;
/**
 * The first trips of every traveler, so that each has one starting tomorrow and every booking status. The
 * three ahead end with `flies`: when the two before it went by rail, it goes where only a flight reaches, so
 * every traveler has an upcoming flight for check-in, gate and delay events.
 */
const PLANNED_TRIPS: readonly { fromDay: number; toDay: number; status?: string; flies?: boolean }[] = [
  { fromDay: 1, toDay: 1, status: 'confirmed' },
  { fromDay: 10, toDay: 40, status: 'confirmed' },
  { fromDay: 45, toDay: 90, status: 'pending', flies: true },
  { fromDay: -200, toDay: -30, status: 'cancelled' },
  { fromDay: -120, toDay: -15, status: 'completed' },
];
const RAIL_OPERATOR = { code: 'XR', name: 'Express Rail' };
const HOTEL_NAMES = ['Grand', 'Harbour', 'Park', 'Central', 'Riverside', 'Meridian', 'Garden', 'Station'];
const CURRENCY_BY_COUNTRY: Record<string, string> = {
  US: 'USD',
  GB: 'GBP',
  CH: 'CHF',
  JP: 'JPY',
  CA: 'CAD',
  AU: 'AUD',
};
const LOCALE_BY_COUNTRY: Record<string, string> = {
  US: 'en-US',
  GB: 'en-GB',
  DE: 'de-DE',
  FR: 'fr-FR',
  ES: 'es-ES',
  IT: 'it-IT',
  NL: 'nl-NL',
  JP: 'ja-JP',
  CH: 'de-CH',
  AT: 'de-AT',
  CA: 'en-CA',
  AU: 'en-AU',
  IE: 'en-IE',
  PT: 'pt-PT',
  SE: 'sv-SE',
  DK: 'da-DK',
};

export interface GenerateTravelerInput {
  seed: string;
  traveler: { id: string; email: string | undefined; name: string | undefined };
  airports: readonly Airport[];
  /** The moment the service first sees the traveler: trips are placed around it. */
  now: Date;
}

/**
 * A traveler's profile, trips and bookings: past trips completed or cancelled, one trip starting tomorrow
 * and more ahead, flights (or rail for short hops), a hotel per trip, sometimes a rental car. Everything
 * is drawn from (seed, traveler id) alone, so a traveler is the same on every day and machine; only the
 * trips' dates follow the day the service first sees them. The demo travelers' profiles are fixed
 * (DEMO_PROFILES) whatever the seed.
 */
export function generateTraveler({
  seed,
  traveler,
  airports,
  now,
}: GenerateTravelerInput): GeneratedTraveler {
  const random = createRandom(seed, 'traveler', traveler.id);
  const demo = DEMO_PROFILES[traveler.id];
  const { home, preferences } = demo ? demoPreferences(demo, airports) : drawPreferences(random, airports);
  const { currency, bookingProfile } = preferences;
  const profile: ProfileRecord = {
    id: traveler.id,
    email: traveler.email ?? null,
    name: traveler.name ?? null,
    homeAirport: home.code,
    ...preferences,
  };

  const today = localDate(now, home.timeZone);
  const longHistory = traveler.id === LONG_HISTORY_TRAVELER_ID;
  const tripCount = longHistory ? 40 : random.int(6, 9);
  // Another airport of the home city (Gatwick for a Heathrow traveler) is no destination: a train or a
  // flight would go from the city to itself.
  const destinations = airports.filter((airport) => !sameCity(airport, home));
  const flightDestinations = destinations.filter((airport) => distanceKm(home, airport) >= RAIL_MAX_KM);
  const trips: TripRecord[] = [];
  const bookings: BookingRecord[] = [];
  for (let index = 0; index < tripCount; index++) {
    const planned = PLANNED_TRIPS[index];
    const startOffset = planned
      ? random.int(planned.fromDay, planned.toDay)
      : longHistory
        ? random.int(-900, 150)
        : random.int(-360, 120);
    const mustFly = planned?.flies === true && !trips.some((earlier) => hasFlight(earlier));
    const trip = generateTrip({
      random,
      home,
      destination: random.pick(mustFly ? flightDestinations : destinations),
      startDate: addDays(today, startOffset),
      nights: random.int(2, 8),
      today,
      now,
      currency,
      bookingProfile: index < 2 ? bookingProfile : random.chance(0.8) ? bookingProfile : !bookingProfile,
      status: planned?.status,
    });
    trips.push(trip.trip);
    bookings.push(...trip.bookings);
  }
  trips.sort((a, b) => a.startDate.localeCompare(b.startDate));
  return { profile, trips, bookings };
}

function sameCity(airport: Airport, home: Airport): boolean {
  return (
    airport.code === home.code || (airport.city === home.city && airport.countryCode === home.countryCode)
  );
}

function hasFlight(trip: TripRecord): boolean {
  return trip.segments.some((segment) => segment.kind === 'flight');
}

type Preferences = Omit<ProfileRecord, 'id' | 'email' | 'name' | 'homeAirport'>;

function demoPreferences(
  demo: DemoProfile,
  airports: readonly Airport[],
): { home: Airport; preferences: Preferences } {
  const home = airports.find((airport) => airport.code === demo.homeAirport);
  if (!home) throw new RangeError(`The demo home airport ${demo.homeAirport} is not in the inventory.`);
  const { currency, locale, bookingProfile, loyaltyPrograms } = demo;
  return {
    home,
    preferences: {
      currency,
      locale,
      bookingProfile,
      loyaltyPrograms: loyaltyPrograms.map((item) => ({ ...item })),
    },
  };
}

function drawPreferences(
  random: Random,
  airports: readonly Airport[],
): { home: Airport; preferences: Preferences } {
  const home = random.pick(airports.slice(0, 30));
  const country = home.countryCode ?? '';
  return {
    home,
    preferences: {
      currency: CURRENCY_BY_COUNTRY[country] ?? 'EUR',
      locale: LOCALE_BY_COUNTRY[country] ?? 'en-GB',
      bookingProfile: random.chance(0.5),
      loyaltyPrograms: random.chance(0.7)
        ? [
            {
              program: `${random.pick(CARRIERS).name} Miles`,
              memberNumber: String(random.int(10_000_000, 99_999_999)),
            },
          ]
        : [],
    },
  };
}

interface TripInput {
  random: Random;
  home: Airport;
  destination: Airport;
  startDate: string;
  nights: number;
  today: string;
  now: Date;
  currency: string;
  bookingProfile: boolean;
  status: string | undefined;
}

/** A segment as planned, before it gets its identity, booking and status within the trip. */
type PlannedSegment = Omit<
  SegmentRecord,
  'position' | 'tripId' | 'segmentId' | 'bookingReference' | 'status' | 'delayMinutes'
>;

function generateTrip(input: TripInput): { trip: TripRecord; bookings: BookingRecord[] } {
  const { random, home, destination, startDate, nights, today } = input;
  const tripId = random.uuid();
  const endDate = addDays(startDate, nights);
  const km = distanceKm(home, destination);
  const byRail = km < RAIL_MAX_KM;
  const status = input.status ?? tripStatus(random, startDate, endDate, today);
  const segments: SegmentRecord[] = [];
  const bookings: BookingRecord[] = [];
  const add = (segment: PlannedSegment, amount: number, vertical: string): void => {
    const reference = bookingReference(random);
    const record: SegmentRecord = {
      ...segment,
      segmentId: random.uuid(),
      tripId,
      position: segments.length,
      status: status === 'cancelled' ? 'CANCELLED' : status === 'completed' ? 'COMPLETED' : 'SCHEDULED',
      delayMinutes: 0,
      bookingReference: reference,
    };
    // A hotel's or depot's address as its country writes it ("Rua Augusta, 12, Lisbon"), derived from the
    // segment's id so the traveler's other generated data does not change.
    if (vertical === 'stay' || vertical === 'car')
      record.address = derivedAddress(record.segmentId, destination.countryCode ?? '', destination.city);
    segments.push(record);
    bookings.push({
      bookingId: random.uuid(),
      reference,
      vertical,
      status,
      title: segment.title,
      startDate: localDate(segment.scheduledDeparture, segment.origin.timeZone),
      endDate: localDate(segment.scheduledArrival, segment.destination.timeZone),
      tripId,
      segmentId: record.segmentId,
      city: vertical === 'stay' || vertical === 'car' ? destination.city : segment.destination.city,
      countryCode: vertical === 'flight' || vertical === 'rail' ? null : destination.countryCode,
      route:
        vertical === 'flight' || vertical === 'rail'
          ? [segment.origin, segment.destination].map(({ code, city }) => ({ code, city }))
          : null,
      totalAmount: fromEuros(amount, input.currency),
      currency: input.currency,
      bookingProfile: input.bookingProfile,
      bookedAt: bookedAt(random, startDate, input.now),
    });
  };

  const outbound = transport(random, home, destination, startDate, random.int(7 * 12, 19 * 12) * 5, byRail);
  add(outbound.segment, outbound.price, byRail ? 'rail' : 'flight');
  const hotel = `${random.pick(HOTEL_NAMES)} Hotel ${destination.city}`;
  const place = placeOf(destination, hotel, null);
  const checkIn = new Date(
    Math.max(
      zonedInstant(startDate, 15 * 60, destination.timeZone).getTime(),
      outbound.segment.scheduledArrival.getTime() + 3_600_000,
    ),
  );
  add(
    {
      kind: 'stay',
      title: hotel,
      origin: place,
      destination: place,
      scheduledDeparture: checkIn,
      scheduledArrival: zonedInstant(endDate, 11 * 60, destination.timeZone),
      carrier: null,
      serviceNumber: null,
      terminal: null,
      gate: null,
      seat: null,
    },
    random.int(90, 320) * nights,
    'stay',
  );
  if (!byRail && random.chance(0.3)) {
    const depot = placeOf(destination, `Car rental, ${destination.name}`, destination.code);
    add(
      {
        kind: 'car',
        title: `Rental car in ${destination.city}`,
        origin: depot,
        destination: depot,
        scheduledDeparture: new Date(outbound.segment.scheduledArrival.getTime() + 45 * 60_000),
        scheduledArrival: zonedInstant(endDate, 9 * 60, destination.timeZone),
        carrier: null,
        serviceNumber: null,
        terminal: null,
        gate: null,
        seat: null,
      },
      random.int(45, 95) * Math.max(1, nights),
      'car',
    );
  }
  const inbound = transport(random, destination, home, endDate, random.int(13 * 12, 21 * 12) * 5, byRail);
  add(inbound.segment, inbound.price, byRail ? 'rail' : 'flight');
  return {
    trip: { tripId, title: `${destination.city} trip`, startDate, endDate, segments },
    bookings,
  };
}

function transport(
  random: Random,
  from: Airport,
  to: Airport,
  date: string,
  minuteOfDay: number,
  byRail: boolean,
): { segment: PlannedSegment; price: number } {
  const km = distanceKm(from, to);
  const departure = zonedInstant(date, minuteOfDay, from.timeZone);
  if (byRail) {
    const minutes = Math.round((20 + (km / 160) * 60) / 5) * 5;
    const serviceNumber = `${RAIL_OPERATOR.code} ${random.int(100, 999)}`;
    const coach = String(random.int(1, 12));
    return {
      segment: {
        kind: 'rail',
        title: `${from.city} → ${to.city}`,
        origin: placeOf(from, `${from.city} Central Station`, null),
        destination: placeOf(to, `${to.city} Central Station`, null),
        scheduledDeparture: departure,
        scheduledArrival: new Date(departure.getTime() + minutes * 60_000),
        carrier: RAIL_OPERATOR,
        serviceNumber,
        terminal: null,
        gate: null,
        seat: String(random.int(11, 88)),
        coach,
      },
      price: 30 + km * 0.14,
    };
  }
  const carrier = random.pick(CARRIERS);
  const minutes = flightMinutes(km);
  return {
    segment: {
      kind: 'flight',
      title: `${from.city} → ${to.city}`,
      origin: placeOf(from, from.name, from.code),
      destination: placeOf(to, to.name, to.code),
      scheduledDeparture: departure,
      scheduledArrival: new Date(departure.getTime() + minutes * 60_000),
      carrier,
      serviceNumber: `${carrier.code} ${random.int(10, 2999)}`,
      terminal: random.pick(['1', '2', '3', '4', '5', 'A', 'B', 'C']),
      gate: `${random.pick(['A', 'B', 'C', 'D', 'E'])}${random.int(1, 48)}`,
      seat: `${random.int(3, 42)}${random.pick(['A', 'B', 'C', 'D', 'E', 'F'])}`,
    },
    price: 60 + km * 0.09 * (1 + random.next() * 0.5),
  };
}

function placeOf(airport: Airport, name: string, code: string | null): SegmentPlace {
  return { code, name, city: airport.city, timeZone: airport.timeZone };
}

function tripStatus(random: Random, startDate: string, endDate: string, today: string): string {
  if (endDate < today) return random.chance(0.1) ? 'cancelled' : 'completed';
  if (startDate <= today || startDate <= addDays(today, 1)) return 'confirmed';
  if (random.chance(0.08)) return 'cancelled';
  return random.chance(0.12) ? 'pending' : 'confirmed';
}

function bookingReference(random: Random): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let reference = '';
  for (let i = 0; i < 6; i++) reference += random.pick([...alphabet]);
  return reference;
}

function bookedAt(random: Random, startDate: string, now: Date): Date {
  const candidate =
    Date.parse(`${startDate}T00:00:00Z`) - random.int(5, 90) * 86_400_000 + random.int(0, 86_399) * 1000;
  return new Date(Math.min(candidate, now.getTime() - random.int(1, 72) * 3_600_000));
}
