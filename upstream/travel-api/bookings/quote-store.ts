import type { DatabaseSync } from 'node:sqlite';
import type { FlightOffer, Money } from '#shared/upstream/flights.ts';
import type { StayFare, StayRoom } from '#shared/upstream/stays.ts';
import { applyMigrations } from '../db.ts';

/** A flight offer as the search quoted it, with who it was for. */
export interface FlightQuote {
  kind: 'flight';
  offer: FlightOffer;
  passengers: { adults: number; children: number; infants: number };
}

/** A stay rate as the fares stream quoted it, with the hotel and the terms it was quoted for. */
export interface StayQuote {
  kind: 'stay';
  fare: StayFare;
  property: {
    propertyId: string;
    name: string;
    address: string;
    city: string;
    countryCode: string;
    timeZone: string;
  };
  checkIn: string;
  checkOut: string;
  rooms: StayRoom[];
  bookingProfile: boolean;
}

export type Quote = FlightQuote | StayQuote;

export interface StoredQuote {
  offerId: string;
  quote: Quote;
  /** The price a booking made now pays (changes when a price check finds another). */
  price: Money;
  expiresAt: Date;
}

interface QuoteRow {
  offer_id: string;
  payload: string;
  price_amount: number;
  currency: string;
  expires_at: string;
}

/**
 * Offers and rates the service has quoted, so that a price check and a booking can refer to them by id
 * until they expire: flight offers at their expiresAt, stay rates after the session cache lifetime.
 */
export class QuoteStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    applyMigrations(db, [
      {
        name: 'bookings-001-quotes',
        sql: `CREATE TABLE quotes (
          offer_id TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          payload TEXT NOT NULL,
          price_amount REAL NOT NULL,
          currency TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX quotes_expiry ON quotes (expires_at);`,
      },
    ]);
  }

  /** Remembers quotes (a quote given again replaces the earlier one) and forgets expired ones. */
  save(
    entries: readonly { offerId: string; quote: Quote; price: Money; expiresAt: Date }[],
    now: Date,
  ): void {
    if (entries.length === 0) return;
    this.#db.prepare('DELETE FROM quotes WHERE expires_at <= ?').run(now.toISOString());
    const upsert = this.#db.prepare(`INSERT INTO quotes (offer_id, kind, payload, price_amount, currency,
        expires_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (offer_id) DO UPDATE SET kind = excluded.kind, payload = excluded.payload,
        price_amount = excluded.price_amount, currency = excluded.currency, expires_at = excluded.expires_at,
        updated_at = excluded.updated_at`);
    for (const entry of entries) {
      upsert.run(
        entry.offerId,
        entry.quote.kind,
        JSON.stringify(entry.quote),
        entry.price.amount,
        entry.price.currency,
        entry.expiresAt.toISOString(),
        now.toISOString(),
      );
    }
  }

  /** A quote still valid at `now`; undefined when unknown or expired. */
  get(offerId: string, now: Date): StoredQuote | undefined {
    const row = this.#db
      .prepare('SELECT * FROM quotes WHERE offer_id = ? AND expires_at > ?')
      .get(offerId, now.toISOString()) as QuoteRow | undefined;
    if (!row) return undefined;
    return {
      offerId: row.offer_id,
      quote: JSON.parse(row.payload) as Quote,
      price: { amount: row.price_amount, currency: row.currency },
      expiresAt: new Date(row.expires_at),
    };
  }

  /** Sets the price a booking of this quote pays from now on. */
  reprice(offerId: string, price: Money, now: Date): void {
    this.#db
      .prepare('UPDATE quotes SET price_amount = ?, currency = ?, updated_at = ? WHERE offer_id = ?')
      .run(price.amount, price.currency, now.toISOString(), offerId);
  }
}
