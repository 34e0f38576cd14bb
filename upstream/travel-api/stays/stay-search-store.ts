import type { DatabaseSync } from 'node:sqlite';
import type { StayRoom } from '#shared/upstream/stays.ts';
import { applyMigrations, transaction, type Migration } from '../db.ts';

export const STAY_SEARCH_MIGRATIONS: readonly Migration[] = [
  {
    name: 'stays-001-search-cache',
    sql: `
      CREATE TABLE stay_searches (
        search_id TEXT PRIMARY KEY,
        check_in TEXT NOT NULL,
        check_out TEXT NOT NULL,
        rooms TEXT NOT NULL,
        booking_profile INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX stay_searches_expiry ON stay_searches (expires_at);
      CREATE TABLE stay_search_solutions (
        search_solution_id TEXT PRIMARY KEY,
        search_id TEXT NOT NULL REFERENCES stay_searches (search_id) ON DELETE CASCADE,
        property_id TEXT NOT NULL,
        city_id TEXT NOT NULL,
        solution_key TEXT NOT NULL
      ) STRICT;
      CREATE INDEX stay_search_solutions_search ON stay_search_solutions (search_id);
    `,
  },
];

export interface StaySearchTerms {
  checkIn: string;
  checkOut: string;
  rooms: StayRoom[];
  bookingProfile: boolean;
}

export interface StaySearchSolution {
  searchSolutionId: string;
  propertyId: string;
  cityId: string;
  solutionKey: string;
}

export interface StoredStaySearch extends StaySearchTerms {
  searchId: string;
  expiresAt: Date;
}

export interface FoundSolution {
  search: StoredStaySearch;
  solution: StaySearchSolution;
}

/**
 * The session cache of stay searches: what the search-stream path of stay fares needs to find a
 * search's solution and check that the fares call repeats the search's dates, rooms and profile.
 * Entries live for the session cache lifetime and are pruned as new searches arrive.
 */
export class StaySearchStore {
  readonly #db: DatabaseSync;
  readonly #lifetimeMs: number;

  constructor(db: DatabaseSync, lifetimeSeconds: number) {
    applyMigrations(db, STAY_SEARCH_MIGRATIONS);
    this.#db = db;
    this.#lifetimeMs = lifetimeSeconds * 1000;
  }

  /** Remembers a search and its solutions; returns when they expire. */
  save(searchId: string, terms: StaySearchTerms, solutions: readonly StaySearchSolution[], now: Date): Date {
    const expiresAt = new Date(now.getTime() + this.#lifetimeMs);
    const insertSearch = this.#db.prepare(
      `INSERT INTO stay_searches (search_id, check_in, check_out, rooms, booking_profile, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertSolution = this.#db.prepare(
      `INSERT INTO stay_search_solutions (search_solution_id, search_id, property_id, city_id, solution_key)
       VALUES (?, ?, ?, ?, ?)`,
    );
    transaction(this.#db, () => {
      this.#db.prepare('DELETE FROM stay_searches WHERE expires_at <= ?').run(now.toISOString());
      insertSearch.run(
        searchId,
        terms.checkIn,
        terms.checkOut,
        JSON.stringify(terms.rooms),
        terms.bookingProfile ? 1 : 0,
        now.toISOString(),
        expiresAt.toISOString(),
      );
      for (const solution of solutions) {
        insertSolution.run(
          solution.searchSolutionId,
          searchId,
          solution.propertyId,
          solution.cityId,
          solution.solutionKey,
        );
      }
    });
    return expiresAt;
  }

  /** The live search solution for these ids; undefined when unknown, expired or of another property. */
  findSolution(searchSolutionId: string, propertyId: string, now: Date): FoundSolution | undefined {
    const row = this.#db
      .prepare(
        `SELECT s.search_id, s.check_in, s.check_out, s.rooms, s.booking_profile, s.expires_at,
                o.search_solution_id, o.property_id, o.city_id, o.solution_key
         FROM stay_search_solutions o JOIN stay_searches s ON s.search_id = o.search_id
         WHERE o.search_solution_id = ? AND o.property_id = ? AND s.expires_at > ?`,
      )
      .get(searchSolutionId, propertyId, now.toISOString()) as SolutionRow | undefined;
    if (!row) return undefined;
    return {
      search: {
        searchId: row.search_id,
        checkIn: row.check_in,
        checkOut: row.check_out,
        rooms: JSON.parse(row.rooms) as StayRoom[],
        bookingProfile: row.booking_profile === 1,
        expiresAt: new Date(row.expires_at),
      },
      solution: {
        searchSolutionId: row.search_solution_id,
        propertyId: row.property_id,
        cityId: row.city_id,
        solutionKey: row.solution_key,
      },
    };
  }
}

interface SolutionRow {
  search_id: string;
  check_in: string;
  check_out: string;
  rooms: string;
  booking_profile: number;
  expires_at: string;
  search_solution_id: string;
  property_id: string;
  city_id: string;
  solution_key: string;
}
