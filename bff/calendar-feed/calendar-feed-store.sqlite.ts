import type { DatabaseSync } from 'node:sqlite';
import { openPrivateDatabase } from '../sessions/private-database.ts';
import type { CalendarFeed, CalendarFeedStore, EventRevision } from './calendar-feed-store.ts';

interface FeedRow {
  traveler_id: string;
  created_at: string;
}

interface SequenceRow {
  uid: string;
  fingerprint: string;
  sequence: number;
}

/** Calendar feeds and their events' SEQUENCE numbers in an embedded SQLite file under the data folder. */
export class SqliteCalendarFeedStore implements CalendarFeedStore {
  readonly #db: DatabaseSync;

  constructor(dataDir: string) {
    this.#db = openPrivateDatabase(dataDir, 'calendar-feeds.sqlite');
    this.#db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA busy_timeout = 2000;
      CREATE TABLE IF NOT EXISTS calendar_feeds (
        traveler_id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS calendar_event_sequences (
        traveler_id TEXT NOT NULL,
        uid TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        PRIMARY KEY (traveler_id, uid)
      );
    `);
  }

  enable(travelerId: string, tokenHash: string, createdAt: string): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO calendar_feeds (traveler_id, token_hash, created_at) VALUES (?, ?, ?)
         ON CONFLICT (traveler_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`,
      )
      .run(travelerId, tokenHash, createdAt);
    return Promise.resolve();
  }

  disable(travelerId: string): Promise<boolean> {
    const result = this.#db.prepare('DELETE FROM calendar_feeds WHERE traveler_id = ?').run(travelerId);
    return Promise.resolve(Number(result.changes) > 0);
  }

  findByTokenHash(tokenHash: string): Promise<CalendarFeed | undefined> {
    const row = this.#db
      .prepare('SELECT traveler_id, created_at FROM calendar_feeds WHERE token_hash = ?')
      .get(tokenHash) as FeedRow | undefined;
    return Promise.resolve(row && { travelerId: row.traveler_id, createdAt: row.created_at });
  }

  findByTraveler(travelerId: string): Promise<CalendarFeed | undefined> {
    const row = this.#db
      .prepare('SELECT traveler_id, created_at FROM calendar_feeds WHERE traveler_id = ?')
      .get(travelerId) as FeedRow | undefined;
    return Promise.resolve(row && { travelerId: row.traveler_id, createdAt: row.created_at });
  }

  sequences(travelerId: string, revisions: readonly EventRevision[]): Promise<Map<string, number>> {
    const read = this.#db.prepare(
      'SELECT uid, fingerprint, sequence FROM calendar_event_sequences WHERE traveler_id = ? AND uid = ?',
    );
    const write = this.#db.prepare(
      `INSERT INTO calendar_event_sequences (traveler_id, uid, fingerprint, sequence) VALUES (?, ?, ?, ?)
       ON CONFLICT (traveler_id, uid) DO UPDATE SET fingerprint = excluded.fingerprint, sequence = excluded.sequence`,
    );
    const sequences = new Map<string, number>();
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      for (const { uid, fingerprint } of revisions) {
        const row = read.get(travelerId, uid) as SequenceRow | undefined;
        const sequence = !row ? 0 : row.fingerprint === fingerprint ? row.sequence : row.sequence + 1;
        if (!row || row.fingerprint !== fingerprint) write.run(travelerId, uid, fingerprint, sequence);
        sequences.set(uid, sequence);
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
    return Promise.resolve(sequences);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
