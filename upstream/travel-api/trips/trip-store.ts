import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { randomUUID } from 'node:crypto';
import type {
  Segment,
  SegmentDetails,
  SegmentPlace,
  SegmentStatus,
  TripDetails,
  TripOverview,
} from '#shared/upstream/trips.ts';
import { applyMigrations, transaction } from '../db.ts';
import { toLocalIso } from '../time-zones.ts';
import { derivedAddress } from '../stays/street-address.ts';
import type { SegmentRecord, TripRecord } from '../travelers/traveler-records.ts';

interface SegmentRow {
  segment_id: string;
  trip_id: string;
  kind: string;
  title: string;
  status: string;
  origin: string;
  destination: string;
  scheduled_departure: string;
  scheduled_arrival: string;
  delay_minutes: number;
  carrier: string | null;
  service_number: string | null;
  terminal: string | null;
  gate: string | null;
  seat: string | null;
  coach: string | null;
  address: string | null;
  booking_reference: string;
  updated_at: string;
  trip_title: string;
  start_date: string;
  end_date: string;
}

export interface SegmentStatusPatch {
  status?: SegmentStatus | (string & {});
  gate?: string | null;
  terminal?: string | null;
}

interface TripDatesRow {
  trip_id: string;
  start_date: string;
  end_date: string;
}

const SELECT_SEGMENT = `SELECT s.*, t.title AS trip_title, t.start_date, t.end_date
  FROM segments s JOIN trips t ON t.trip_id = s.trip_id`;

/** A place's city by language (`{ en: 'London', es: 'Londres' }`), or undefined when none is known. */
export type CityNamesOf = (
  place: Pick<SegmentPlace, 'code' | 'city'>,
) => Readonly<Record<string, string>> | undefined;

/** Travelers' trips and their segments, with live status and delays (the simulator changes them). */
export class TripStore {
  readonly #db: DatabaseSync;
  readonly #cityNamesOf: CityNamesOf;
  #insertSegmentStatement: StatementSync | undefined;

  /** `cityNamesOf` names each place's city in the languages it knows, on every trip and segment read. */
  constructor(db: DatabaseSync, cityNamesOf: CityNamesOf = () => undefined) {
    this.#db = db;
    this.#cityNamesOf = cityNamesOf;
    applyMigrations(db, [
      {
        name: 'core-002-trips',
        sql: `CREATE TABLE trips (
          trip_id TEXT PRIMARY KEY,
          traveler_id TEXT NOT NULL,
          title TEXT NOT NULL,
          start_date TEXT NOT NULL,
          end_date TEXT NOT NULL
        ) STRICT;
        CREATE INDEX trips_traveler ON trips (traveler_id, start_date);
        CREATE TABLE segments (
          segment_id TEXT PRIMARY KEY,
          trip_id TEXT NOT NULL REFERENCES trips (trip_id),
          traveler_id TEXT NOT NULL,
          position INTEGER NOT NULL,
          kind TEXT NOT NULL,
          title TEXT NOT NULL,
          status TEXT NOT NULL,
          origin TEXT NOT NULL,
          destination TEXT NOT NULL,
          scheduled_departure TEXT NOT NULL,
          scheduled_arrival TEXT NOT NULL,
          delay_minutes INTEGER NOT NULL,
          carrier TEXT,
          service_number TEXT,
          terminal TEXT,
          gate TEXT,
          seat TEXT,
          booking_reference TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX segments_traveler ON segments (traveler_id, scheduled_departure);`,
      },
      {
        // A train's coach gets its own column; seats written as "Coach 4, seat 23" before it are split.
        name: 'core-006-segment-coach',
        sql: `ALTER TABLE segments ADD COLUMN coach TEXT;
        UPDATE segments SET coach = substr(seat, 7, instr(seat, ',') - 7), seat = substr(seat, instr(seat, ', seat ') + 7)
          WHERE kind = 'rail' AND seat LIKE 'Coach %, seat %';`,
      },
      {
        // A booked stay keeps its hotel's own address (a stay booked before is given it by bookings-005).
        name: 'core-008-segment-address',
        sql: 'ALTER TABLE segments ADD COLUMN address TEXT',
      },
    ]);
  }

  /** Stores generated trips; called inside the traveler's creation transaction. */
  insertTrips(travelerId: string, trips: readonly TripRecord[], now: Date): void {
    const insertTrip = this.#db.prepare(
      'INSERT INTO trips (trip_id, traveler_id, title, start_date, end_date) VALUES (?, ?, ?, ?, ?)',
    );
    for (const trip of trips) {
      insertTrip.run(trip.tripId, travelerId, trip.title, trip.startDate, trip.endDate);
      for (const segment of trip.segments) this.#insertSegment(travelerId, segment, now);
    }
  }

  /**
   * Puts a new booking's segments into the traveler's trip it names, else the trip it belongs to (see
   * #tripToJoin), widening the trip when the booking reaches past it, else a new trip with the given title;
   * call inside a transaction.
   */
  addBookedSegments(
    travelerId: string,
    booking: { title: string; startDate: string; endDate: string; tripId?: string | undefined },
    segments: readonly Omit<SegmentRecord, 'tripId' | 'position'>[],
    now: Date,
  ): { tripId: string } {
    const chosen =
      booking.tripId === undefined
        ? undefined
        : (this.#db
            .prepare('SELECT trip_id, start_date, end_date FROM trips WHERE traveler_id = ? AND trip_id = ?')
            .get(travelerId, booking.tripId) as TripDatesRow | undefined);
    const existing = chosen ?? this.#tripToJoin(travelerId, booking, segments, now);
    let tripId: string;
    if (existing) {
      tripId = existing.trip_id;
      this.#db
        .prepare('UPDATE trips SET start_date = ?, end_date = ? WHERE trip_id = ?')
        .run(
          existing.start_date < booking.startDate ? existing.start_date : booking.startDate,
          existing.end_date > booking.endDate ? existing.end_date : booking.endDate,
          tripId,
        );
    } else {
      tripId = randomUUID();
      this.#db
        .prepare(
          'INSERT INTO trips (trip_id, traveler_id, title, start_date, end_date) VALUES (?, ?, ?, ?, ?)',
        )
        .run(tripId, travelerId, booking.title, booking.startDate, booking.endDate);
    }
    const { next } = this.#db
      .prepare('SELECT COALESCE(MAX(position), -1) + 1 AS next FROM segments WHERE trip_id = ?')
      .get(tripId) as { next: number };
    segments.forEach((segment, index) =>
      this.#insertSegment(travelerId, { ...segment, tripId, position: next + index }, now),
    );
    return { tripId };
  }

  /**
   * The trip a booking belongs to: the earliest of the traveler's trips, not wholly cancelled, whose dates
   * overlap the booking's or lie within a day of them, and which visits a city the booking reaches or leaves
   * from (a flight there, a hotel there, the flight back or onwards from there).
   */
  #tripToJoin(
    travelerId: string,
    booking: { startDate: string; endDate: string },
    segments: readonly Pick<SegmentRecord, 'origin' | 'destination'>[],
    now: Date,
  ): TripDatesRow | undefined {
    const places = new Set(segments.flatMap((segment) => [segment.origin.city, segment.destination.city]));
    const candidates = this.#db
      .prepare(
        `SELECT trip_id, start_date, end_date FROM trips t WHERE traveler_id = ?
          AND date(start_date, '-1 day') <= ? AND date(end_date, '+1 day') >= ?
          AND EXISTS (SELECT 1 FROM segments s WHERE s.trip_id = t.trip_id AND s.status != 'CANCELLED')
          ORDER BY start_date, trip_id`,
      )
      .all(travelerId, booking.endDate, booking.startDate) as unknown as TripDatesRow[];
    return candidates.find((trip) =>
      this.#tripOf(travelerId, trip.trip_id, now)?.cities.some((city) => places.has(city)),
    );
  }

  #insertSegment(travelerId: string, segment: SegmentRecord, now: Date): void {
    this.#insertSegmentStatement ??= this.#db.prepare(
      `INSERT INTO segments (segment_id, trip_id, traveler_id, position, kind, title, status, origin,
          destination, scheduled_departure, scheduled_arrival, delay_minutes, carrier, service_number, terminal,
          gate, seat, coach, booking_reference, updated_at, address)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insertSegmentStatement.run(
      segment.segmentId,
      segment.tripId,
      travelerId,
      segment.position,
      segment.kind,
      segment.title,
      segment.status,
      JSON.stringify(segment.origin),
      JSON.stringify(segment.destination),
      segment.scheduledDeparture.toISOString(),
      segment.scheduledArrival.toISOString(),
      segment.delayMinutes,
      segment.carrier ? JSON.stringify(segment.carrier) : null,
      segment.serviceNumber,
      segment.terminal,
      segment.gate,
      segment.seat,
      segment.coach ?? null,
      segment.bookingReference,
      now.toISOString(),
      segment.address ?? null,
    );
  }

  /** Every segment of the traveler's trips, earliest departure first. */
  listSegments(travelerId: string): SegmentDetails[] {
    const rows = this.#db
      .prepare(`${SELECT_SEGMENT} WHERE s.traveler_id = ? ORDER BY s.scheduled_departure, s.position`)
      .all(travelerId) as unknown as SegmentRow[];
    return rows.map((row) => toSegmentDetails(row, this.#cityNamesOf));
  }

  /** Segments not yet departed (by estimated time) and not cancelled, soonest first. */
  upcomingSegments(travelerId: string, now = new Date()): SegmentDetails[] {
    return this.listSegments(travelerId).filter(
      (segment) =>
        segment.status !== 'CANCELLED' &&
        segment.status !== 'COMPLETED' &&
        Date.parse(segment.estimatedDeparture) > now.getTime(),
    );
  }

  /** A segment of one of the traveler's trips; undefined when it does not exist or is someone else's. */
  getSegment(travelerId: string, tripId: string, segmentId: string): SegmentDetails | undefined {
    const row = this.#db
      .prepare(`${SELECT_SEGMENT} WHERE s.traveler_id = ? AND s.trip_id = ? AND s.segment_id = ?`)
      .get(travelerId, tripId, segmentId) as SegmentRow | undefined;
    return row ? toSegmentDetails(row, this.#cityNamesOf) : undefined;
  }

  /** A page of the traveler's trips, earliest start first, each with its places and overall status. */
  listTrips(
    travelerId: string,
    page: { limit: number; offset: number },
    now = new Date(),
  ): { items: TripOverview[]; totalCount: number } {
    const { count } = this.#db
      .prepare('SELECT COUNT(*) AS count FROM trips WHERE traveler_id = ?')
      .get(travelerId) as { count: number };
    const tripIds = this.#db
      .prepare(
        'SELECT trip_id FROM trips WHERE traveler_id = ? ORDER BY start_date, trip_id LIMIT ? OFFSET ?',
      )
      .all(travelerId, page.limit, page.offset) as { trip_id: string }[];
    const items = tripIds.map(({ trip_id }) => {
      const { segments: _segments, ...overview } = this.#tripOf(travelerId, trip_id, now)!;
      return overview;
    });
    return { items, totalCount: count };
  }

  /** A trip of the traveler with every segment in timeline order; undefined when it is not theirs. */
  getTrip(travelerId: string, tripId: string, now = new Date()): TripDetails | undefined {
    return this.#tripOf(travelerId, tripId, now);
  }

  #tripOf(travelerId: string, tripId: string, now: Date): TripDetails | undefined {
    const rows = this.#db
      .prepare(
        `${SELECT_SEGMENT} WHERE s.traveler_id = ? AND s.trip_id = ? ORDER BY s.scheduled_departure, s.position`,
      )
      .all(travelerId, tripId) as unknown as SegmentRow[];
    const first = rows[0];
    if (!first) return undefined;
    const segments = rows.map((row) => {
      const { trip: _trip, ...segment } = toSegmentDetails(row, this.#cityNamesOf);
      return segment;
    });
    const cities = visitedCities(segments);
    return {
      tripId,
      title: first.trip_title,
      startDate: first.start_date,
      endDate: first.end_date,
      status: tripStatus(segments, now),
      cities,
      cityNames: cities.map((city) => namesOfCity(segments, city)),
      segmentKinds: segments.map((segment) => segment.kind),
      disruptedSegments: segments.filter((segment) => isDisruptedAhead(segment, now)).length,
      segments,
    };
  }

  /** Adds `minutes` to the segment's delay (a negative value recovers time); the status follows. */
  delaySegment(
    travelerId: string,
    tripId: string,
    segmentId: string,
    minutes: number,
    now = new Date(),
  ): SegmentDetails | undefined {
    return transaction(this.#db, () => {
      const current = this.getSegment(travelerId, tripId, segmentId);
      if (!current) return undefined;
      const delay = Math.max(0, current.delayMinutes + Math.round(minutes));
      const status =
        current.status === 'SCHEDULED' || current.status === 'DELAYED'
          ? delay > 0
            ? 'DELAYED'
            : 'SCHEDULED'
          : current.status;
      this.#db
        .prepare('UPDATE segments SET delay_minutes = ?, status = ?, updated_at = ? WHERE segment_id = ?')
        .run(delay, status, now.toISOString(), segmentId);
      return this.getSegment(travelerId, tripId, segmentId);
    });
  }

  /** Changes the live status, gate or terminal of a segment. */
  updateSegmentStatus(
    travelerId: string,
    tripId: string,
    segmentId: string,
    patch: SegmentStatusPatch,
    now = new Date(),
  ): SegmentDetails | undefined {
    return transaction(this.#db, () => {
      const current = this.getSegment(travelerId, tripId, segmentId);
      if (!current) return undefined;
      this.#db
        .prepare(
          'UPDATE segments SET status = ?, gate = ?, terminal = ?, updated_at = ? WHERE segment_id = ?',
        )
        .run(
          patch.status ?? current.status,
          patch.gate === undefined ? current.gate : patch.gate,
          patch.terminal === undefined ? current.terminal : patch.terminal,
          now.toISOString(),
          segmentId,
        );
      return this.getSegment(travelerId, tripId, segmentId);
    });
  }
}

const ENDED_STATUSES = new Set(['COMPLETED', 'ARRIVED']);
const TRANSPORT_KINDS = new Set(['flight', 'rail']);

function isDisruptedAhead(segment: Segment, now: Date): boolean {
  if (ENDED_STATUSES.has(segment.status) || Date.parse(segment.estimatedArrival) <= now.getTime())
    return false;
  return segment.status === 'CANCELLED' || segment.delayMinutes > 0;
}

function tripStatus(segments: readonly Segment[], now: Date): string {
  if (segments.every((segment) => segment.status === 'CANCELLED')) return 'CANCELLED';
  const ended = (segment: Segment) =>
    segment.status === 'CANCELLED' ||
    ENDED_STATUSES.has(segment.status) ||
    Date.parse(segment.estimatedArrival) <= now.getTime();
  if (segments.every(ended)) return 'COMPLETED';
  return segments.some((segment) => isDisruptedAhead(segment, now)) ? 'DISRUPTED' : 'ON_TRACK';
}

/** The cities a trip takes the traveler to, in order, leaving out where it starts (home). */
function visitedCities(segments: readonly Segment[]): string[] {
  const home = segments.find((segment) => TRANSPORT_KINDS.has(segment.kind))?.origin.city;
  const cities: string[] = [];
  for (const segment of segments) {
    const city = segment.destination.city;
    if (city !== home && !cities.includes(city)) cities.push(city);
  }
  return cities;
}

/**
 * The street address of a stay or a car depot (flights and rail have none), as stored with the segment: a
 * booked stay's hotel's own, or the one the generated history gives its hotels and depots in their
 * country's style. A segment stored before segments carried one gets a stable address derived from it.
 */
function addressOf(row: SegmentRow, place: SegmentPlace): string | null {
  if (row.kind !== 'stay' && row.kind !== 'car') return null;
  if (row.address !== null) return row.address;
  // Its country is not stored with it: an English one.
  return derivedAddress(row.segment_id, '', place.city);
}

/** The names of one of a trip's cities, as its segments' places carry them; `{}` when none is known. */
function namesOfCity(segments: readonly Segment[], city: string): Record<string, string> {
  const place = segments
    .flatMap((segment) => [segment.destination, segment.origin])
    .find((item) => item.city === city && item.cityNames);
  return { ...place?.cityNames };
}

/** A stored place, with its city's names when they are known. */
function placeOf(json: string, cityNamesOf: CityNamesOf): SegmentPlace {
  const place = JSON.parse(json) as SegmentPlace;
  const cityNames = cityNamesOf(place);
  return cityNames ? { ...place, cityNames: { ...cityNames } } : place;
}

function toSegmentDetails(row: SegmentRow, cityNamesOf: CityNamesOf): SegmentDetails {
  const origin = placeOf(row.origin, cityNamesOf);
  const destination = placeOf(row.destination, cityNamesOf);
  const departure = new Date(row.scheduled_departure);
  const arrival = new Date(row.scheduled_arrival);
  const delayMs = row.delay_minutes * 60_000;
  const segment: Segment = {
    segmentId: row.segment_id,
    tripId: row.trip_id,
    kind: row.kind,
    title: row.title,
    status: row.status,
    origin,
    destination,
    scheduledDeparture: toLocalIso(departure, origin.timeZone),
    scheduledArrival: toLocalIso(arrival, destination.timeZone),
    estimatedDeparture: toLocalIso(new Date(departure.getTime() + delayMs), origin.timeZone),
    estimatedArrival: toLocalIso(new Date(arrival.getTime() + delayMs), destination.timeZone),
    delayMinutes: row.delay_minutes,
    carrier: row.carrier ? (JSON.parse(row.carrier) as { code: string; name: string }) : null,
    serviceNumber: row.service_number,
    terminal: row.terminal,
    gate: row.gate,
    seat: row.seat,
    coach: row.coach,
    bookingReference: row.booking_reference,
    address: addressOf(row, origin),
    updatedAt: row.updated_at,
  };
  return {
    ...segment,
    trip: { tripId: row.trip_id, title: row.trip_title, startDate: row.start_date, endDate: row.end_date },
  };
}
