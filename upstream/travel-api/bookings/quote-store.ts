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
  /**
   * The price a booking made now by the traveler asking pays: the quoted one, or the one a price check of
   * theirs found since.
   */
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
 * Offer ids are not bound to the caller (the same search gives everyone the same offers), so a price a
 * check finds is kept per traveler: one traveler's price check never changes what another pays.
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
      {
        name: 'bookings-003-traveler-prices',
        sql: `CREATE TABLE quote_prices (
          traveler_id TEXT NOT NULL,
          offer_id TEXT NOT NULL,
          price_amount REAL NOT NULL,
          currency TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          PRIMARY KEY (traveler_id, offer_id)
        ) STRICT;
        CREATE INDEX quote_prices_offer ON quote_prices (offer_id);`,
      },
    ]);
  }

  /**
   * Remembers quotes (a quote given again replaces the earlier one) and forgets expired ones. The traveler
   * they were quoted to, if any, pays the quoted prices again from now on.
   */
  save(
    entries: readonly { offerId: string; quote: Quote; price: Money; expiresAt: Date }[],
    now: Date,
    travelerId?: string,
  ): void {
    if (entries.length === 0) return;
    this.#db.prepare('DELETE FROM quotes WHERE expires_at <= ?').run(now.toISOString());
    this.#db
      .prepare(
        'DELETE FROM quote_prices WHERE NOT EXISTS (SELECT 1 FROM quotes WHERE quotes.offer_id = quote_prices.offer_id)',
      )
      .run();
    const requoted = this.#db.prepare('DELETE FROM quote_prices WHERE traveler_id = ? AND offer_id = ?');
    const upsert = this.#db.prepare(`INSERT INTO quotes (offer_id, kind, payload, price_amount, currency,
        expires_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (offer_id) DO UPDATE SET kind = excluded.kind, payload = excluded.payload,
        price_amount = excluded.price_amount, currency = excluded.currency, expires_at = excluded.expires_at,
        updated_at = excluded.updated_at`);
    for (const entry of entries) {
      if (travelerId !== undefined) requoted.run(travelerId, entry.offerId);
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

  /** A quote still valid at `now`, at the price the traveler pays; undefined when unknown or expired. */
  get(travelerId: string, offerId: string, now: Date): StoredQuote | undefined {
    const row = this.#db
      .prepare(
        `SELECT quotes.offer_id, quotes.payload, quotes.expires_at,
          coalesce(quote_prices.price_amount, quotes.price_amount) AS price_amount,
          coalesce(quote_prices.currency, quotes.currency) AS currency
        FROM quotes LEFT JOIN quote_prices
          ON quote_prices.offer_id = quotes.offer_id AND quote_prices.traveler_id = ?
        WHERE quotes.offer_id = ? AND quotes.expires_at > ?`,
      )
      .get(travelerId, offerId, now.toISOString()) as QuoteRow | undefined;
    if (!row) return undefined;
    return {
      offerId: row.offer_id,
      quote: JSON.parse(row.payload) as Quote,
      price: { amount: row.price_amount, currency: row.currency },
      expiresAt: new Date(row.expires_at),
    };
  }

  /** Sets the price the traveler's booking of this quote pays from now on; nobody else's changes. */
  reprice(travelerId: string, offerId: string, price: Money, now: Date): void {
    this.#db
      .prepare(
        `INSERT INTO quote_prices (traveler_id, offer_id, price_amount, currency, updated_at)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (traveler_id, offer_id) DO UPDATE SET price_amount = excluded.price_amount,
          currency = excluded.currency, updated_at = excluded.updated_at`,
      )
      .run(travelerId, offerId, price.amount, price.currency, now.toISOString());
  }
}
