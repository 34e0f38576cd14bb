import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { Booking, BookingFilters } from '#shared/upstream/bookings.ts';
import type { Airport } from '#shared/upstream/flights.ts';
import type { Profile } from '#shared/upstream/profile.ts';
import { applyMigrations, transaction } from '../db.ts';
import type { CityNamesOf, TripStore } from '../trips/trip-store.ts';
import { generateTraveler } from './generate-traveler.ts';
import type { ProfileRecord, RouteStop } from './traveler-records.ts';

export interface TravelerIdentity {
  id: string;
  email: string | undefined;
  name: string | undefined;
}

export interface ProfileChanges {
  name?: string | undefined;
  homeAirport?: string | null | undefined;
  currency?: string | undefined;
  locale?: string | undefined;
  bookingProfile?: boolean | undefined;
  loyaltyPrograms?: { program: string; memberNumber: string }[] | undefined;
}

interface TravelerRow {
  id: string;
  email: string | null;
  name: string | null;
  home_airport: string | null;
  currency: string;
  locale: string;
  booking_profile: number;
  loyalty_programs: string;
  updated_at: string;
}

interface BookingRow {
  booking_id: string;
  reference: string;
  vertical: string;
  status: string;
  title: string;
  start_date: string;
  end_date: string;
  trip_id: string | null;
  segment_id: string | null;
  city: string;
  country_code: string | null;
  total_amount: number;
  currency: string;
  booking_profile: number;
  booked_at: string;
  /** JSON of the route's stops (RouteStop[]); null for a stay, a car, or a booking stored before routes. */
  route: string | null;
}

/** A booking as it is stored: its route as the places it was booked between, named on every read. */
export type StoredBooking = Pick<
  Booking,
  | 'bookingId'
  | 'reference'
  | 'vertical'
  | 'status'
  | 'title'
  | 'startDate'
  | 'endDate'
  | 'tripId'
  | 'segmentId'
  | 'totalPrice'
  | 'bookingProfile'
  | 'bookedAt'
> & {
  location: { city: string; countryCode: string | null };
  route?: readonly RouteStop[] | undefined;
};

export interface TravelerStoreOptions {
  seed: string;
  airports: readonly Airport[];
  trips: TripStore;
  /** Names each booking's cities in the languages it knows, on every read. */
  cityNamesOf?: CityNamesOf;
}

/** Travelers the service has seen: profile and bookings, generated deterministically on first sight. */
export class TravelerStore {
  readonly #db: DatabaseSync;
  readonly #options: TravelerStoreOptions;
  #insertBookingStatement: StatementSync | undefined;

  constructor(db: DatabaseSync, options: TravelerStoreOptions) {
    this.#db = db;
    this.#options = options;
    applyMigrations(db, [
      {
        name: 'core-003-travelers',
        sql: `CREATE TABLE travelers (
          id TEXT PRIMARY KEY,
          email TEXT,
          name TEXT,
          home_airport TEXT,
          currency TEXT NOT NULL,
          locale TEXT NOT NULL,
          booking_profile INTEGER NOT NULL,
          loyalty_programs TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          last_seen_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE bookings (
          booking_id TEXT PRIMARY KEY,
          traveler_id TEXT NOT NULL REFERENCES travelers (id),
          reference TEXT NOT NULL,
          vertical TEXT NOT NULL,
          status TEXT NOT NULL,
          title TEXT NOT NULL,
          start_date TEXT NOT NULL,
          end_date TEXT NOT NULL,
          trip_id TEXT,
          segment_id TEXT,
          city TEXT NOT NULL,
          country_code TEXT,
          total_amount REAL NOT NULL,
          currency TEXT NOT NULL,
          booking_profile INTEGER NOT NULL,
          booked_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX bookings_traveler ON bookings (traveler_id, start_date);`,
      },
      { name: 'core-007-booking-route', sql: 'ALTER TABLE bookings ADD COLUMN route TEXT' },
    ]);
  }

  /**
   * Makes sure the traveler exists: on first sight their profile, trips and bookings are generated and
   * stored in one transaction; afterwards name and email follow the latest token, and last sight is noted.
   */
  ensure(traveler: TravelerIdentity, now = new Date()): void {
    const existing = this.#db.prepare('SELECT email, name FROM travelers WHERE id = ?').get(traveler.id) as
      { email: string | null; name: string | null } | undefined;
    if (existing) {
      this.#db
        .prepare('UPDATE travelers SET email = ?, name = COALESCE(name, ?), last_seen_at = ? WHERE id = ?')
        .run(traveler.email ?? existing.email, traveler.name ?? null, now.toISOString(), traveler.id);
      return;
    }
    const generated = generateTraveler({
      seed: this.#options.seed,
      traveler,
      airports: this.#options.airports,
      now,
    });
    transaction(this.#db, () => {
      const created = this.#db
        .prepare(
          `INSERT INTO travelers (id, email, name, home_airport, currency, locale, booking_profile,
            loyalty_programs, created_at, updated_at, last_seen_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        )
        .run(...profileValues(generated.profile), now.toISOString(), now.toISOString(), now.toISOString());
      if (created.changes === 0) return;
      this.#options.trips.insertTrips(traveler.id, generated.trips, now);
      for (const booking of generated.bookings) {
        this.insertBooking(traveler.id, {
          bookingId: booking.bookingId,
          reference: booking.reference,
          vertical: booking.vertical,
          status: booking.status,
          title: booking.title,
          startDate: booking.startDate,
          endDate: booking.endDate,
          tripId: booking.tripId,
          segmentId: booking.segmentId,
          location: { city: booking.city, countryCode: booking.countryCode },
          route: booking.route ?? undefined,
          totalPrice: { amount: booking.totalAmount, currency: booking.currency },
          bookingProfile: booking.bookingProfile,
          bookedAt: booking.bookedAt.toISOString(),
        });
      }
    });
  }

  profile(travelerId: string): Profile | undefined {
    const row = this.#db.prepare('SELECT * FROM travelers WHERE id = ?').get(travelerId) as
      TravelerRow | undefined;
    return row ? toProfile(row) : undefined;
  }

  updateProfile(travelerId: string, changes: ProfileChanges, now = new Date()): Profile | undefined {
    const current = this.profile(travelerId);
    if (!current) return undefined;
    const next: ProfileRecord = {
      id: travelerId,
      email: current.email,
      name: changes.name ?? current.name,
      homeAirport: changes.homeAirport === undefined ? current.homeAirport : changes.homeAirport,
      currency: changes.currency ?? current.currency,
      locale: changes.locale ?? current.locale,
      bookingProfile: changes.bookingProfile ?? current.bookingProfile,
      loyaltyPrograms: changes.loyaltyPrograms ?? current.loyaltyPrograms,
    };
    this.#db
      .prepare(
        `UPDATE travelers SET name = ?, home_airport = ?, currency = ?, locale = ?, booking_profile = ?,
          loyalty_programs = ?, updated_at = ? WHERE id = ?`,
      )
      .run(
        next.name,
        next.homeAirport,
        next.currency,
        next.locale,
        next.bookingProfile ? 1 : 0,
        JSON.stringify(next.loyaltyPrograms),
        now.toISOString(),
        travelerId,
      );
    return this.profile(travelerId);
  }

  /** The traveler's bookings matching the filters, latest start date first unless asked, and how many match. */
  bookings(
    travelerId: string,
    filters: BookingFilters,
    page?: { limit: number; offset: number },
  ): { items: Booking[]; totalCount: number } {
    const conditions = ['traveler_id = ?'];
    const values: SQLInputValue[] = [travelerId];
    if (filters.status) {
      conditions.push(`status IN (${filters.status.map(() => '?').join(', ')})`);
      values.push(...filters.status);
    }
    if (filters.vertical) {
      conditions.push(`vertical IN (${filters.vertical.map(() => '?').join(', ')})`);
      values.push(...filters.vertical);
    }
    if (filters.from) {
      conditions.push('start_date >= ?');
      values.push(filters.from);
    }
    if (filters.to) {
      conditions.push('start_date <= ?');
      values.push(filters.to);
    }
    if (filters.endFrom) {
      conditions.push('end_date >= ?');
      values.push(filters.endFrom);
    }
    if (filters.endBefore) {
      conditions.push('end_date < ?');
      values.push(filters.endBefore);
    }
    if (filters.travel) {
      conditions.push('booking_profile = ?');
      values.push(filters.travel === 'personal' ? 1 : 0);
    }
    const where = conditions.join(' AND ');
    const order =
      filters.sort === 'startDate'
        ? 'start_date ASC, booked_at ASC, booking_id'
        : 'start_date DESC, booked_at DESC, booking_id';
    const { count } = this.#db
      .prepare(`SELECT COUNT(*) AS count FROM bookings WHERE ${where}`)
      .get(...values) as {
      count: number;
    };
    const paging = page ? ' LIMIT ? OFFSET ?' : '';
    const rows = this.#db
      .prepare(`SELECT * FROM bookings WHERE ${where} ORDER BY ${order}${paging}`)
      .all(...values, ...(page ? [page.limit, page.offset] : [])) as unknown as BookingRow[];
    return { items: rows.map((row) => this.#toBooking(row)), totalCount: count };
  }

  /** One of the traveler's bookings; undefined when it does not exist or is someone else's. */
  booking(travelerId: string, bookingId: string): Booking | undefined {
    const row = this.#db
      .prepare('SELECT * FROM bookings WHERE traveler_id = ? AND booking_id = ?')
      .get(travelerId, bookingId) as BookingRow | undefined;
    return row ? this.#toBooking(row) : undefined;
  }

  /** Stores a booking made through the booking operations. */
  insertBooking(travelerId: string, booking: StoredBooking): void {
    this.#insertBookingStatement ??= this.#db.prepare(
      `INSERT INTO bookings (booking_id, traveler_id, reference, vertical, status, title, start_date, end_date,
          trip_id, segment_id, city, country_code, total_amount, currency, booking_profile, booked_at, route)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insertBookingStatement.run(
      booking.bookingId,
      travelerId,
      booking.reference,
      booking.vertical,
      booking.status,
      booking.title,
      booking.startDate,
      booking.endDate,
      booking.tripId,
      booking.segmentId,
      booking.location.city,
      booking.location.countryCode,
      booking.totalPrice.amount,
      booking.totalPrice.currency,
      booking.bookingProfile ? 1 : 0,
      booking.bookedAt,
      booking.route ? JSON.stringify(booking.route) : null,
    );
  }

  setBookingStatus(travelerId: string, bookingId: string, status: string): void {
    this.#db
      .prepare('UPDATE bookings SET status = ? WHERE traveler_id = ? AND booking_id = ?')
      .run(status, travelerId, bookingId);
  }

  #toBooking(row: BookingRow): Booking {
    return toBooking(row, this.#options.cityNamesOf ?? (() => undefined));
  }

  /** Travelers who called the service since the given instant (for demo events). */
  recentlyActive(since: Date): string[] {
    const rows = this.#db
      .prepare('SELECT id FROM travelers WHERE last_seen_at >= ? ORDER BY last_seen_at DESC')
      .all(since.toISOString()) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /** A traveler's id by email (the simulator command accepts either). */
  idByEmail(email: string): string | undefined {
    const row = this.#db.prepare('SELECT id FROM travelers WHERE lower(email) = lower(?)').get(email) as
      { id: string } | undefined;
    return row?.id;
  }
}

function profileValues(profile: ProfileRecord): SQLInputValue[] {
  return [
    profile.id,
    profile.email,
    profile.name,
    profile.homeAirport,
    profile.currency,
    profile.locale,
    profile.bookingProfile ? 1 : 0,
    JSON.stringify(profile.loyaltyPrograms),
  ];
}

function toProfile(row: TravelerRow): Profile {
  return {
    travelerId: row.id,
    name: row.name,
    email: row.email,
    homeAirport: row.home_airport,
    currency: row.currency,
    locale: row.locale,
    bookingProfile: row.booking_profile === 1,
    loyaltyPrograms: JSON.parse(row.loyalty_programs) as Profile['loyaltyPrograms'],
    updatedAt: row.updated_at,
  };
}

/** A booking as the service answers it: its cities with their names by language, when known. */
function toBooking(row: BookingRow, cityNamesOf: CityNamesOf): Booking {
  const named = (stop: RouteStop) => {
    const cityNames = cityNamesOf(stop);
    return cityNames ? { city: stop.city, cityNames: { ...cityNames } } : { city: stop.city };
  };
  const locationNames = named({ code: null, city: row.city }).cityNames;
  const route = row.route === null ? undefined : (JSON.parse(row.route) as RouteStop[]).map(named);
  return {
    bookingId: row.booking_id,
    reference: row.reference,
    vertical: row.vertical,
    status: row.status,
    title: row.title,
    startDate: row.start_date,
    endDate: row.end_date,
    tripId: row.trip_id,
    segmentId: row.segment_id,
    location: {
      city: row.city,
      countryCode: row.country_code,
      ...(locationNames ? { cityNames: locationNames } : {}),
    },
    ...(route ? { route } : {}),
    totalPrice: { amount: row.total_amount, currency: row.currency },
    bookingProfile: row.booking_profile === 1,
    bookedAt: row.booked_at,
  };
}
