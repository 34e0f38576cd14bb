import type { DatabaseSync } from 'node:sqlite';
import { openStandInDatabase } from '../stand-in-database.ts';

/**
 * One schema change, applied once per database and remembered by its unique name, `<series>-<NNN>-<what>`:
 * no two migrations of the service share a series and number (db.test.ts checks every store's).
 */
export interface Migration {
  name: string;
  sql: string;
  /**
   * Names this same change was recorded under before it was renamed: a database that recorded one has it
   * applied already, and records it under its name from then on instead of running it again.
   */
  formerly?: readonly string[];
}

/**
 * Opens (creating when needed) the service's sqlite database in the data folder, in WAL mode, readable by
 * the service's own user only (travelers, their bookings and cards on file).
 */
export function openDatabase(dataDir: string): DatabaseSync {
  const db = openStandInDatabase(dataDir, 'travel-api.sqlite');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL
  ) STRICT`);
  return db;
}

/** Applies, in order and each in its own transaction, the migrations this database has not seen yet. */
export function applyMigrations(db: DatabaseSync, migrations: readonly Migration[]): void {
  const applied = db.prepare('SELECT 1 AS found FROM schema_migrations WHERE name = ?');
  const record = db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)');
  const rename = db.prepare('UPDATE schema_migrations SET name = ? WHERE name = ?');
  for (const migration of migrations) {
    if (applied.get(migration.name)) continue;
    const former = migration.formerly?.find((name) => applied.get(name));
    if (former !== undefined) {
      rename.run(migration.name, former);
      continue;
    }
    transaction(db, () => {
      db.exec(migration.sql);
      record.run(migration.name, new Date().toISOString());
    });
  }
}

/** Runs `work` in one transaction: all of its writes land, or none. Inside another, it joins that one. */
export function transaction<T>(db: DatabaseSync, work: () => T): T {
  if (db.isTransaction) return work();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
