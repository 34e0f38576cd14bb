import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTravelApi } from './build-travel-api.ts';
import { applyMigrations, openDatabase } from './db.ts';
import { loadTravelApiConfig } from './travel-api-config.ts';
import { TEST_ADMIN_TOKEN, TEST_CONSUMER } from './test-support/start-travel-api.ts';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'travel-api-migrations-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const tables = (db: DatabaseSync) =>
  (
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
const recorded = (db: DatabaseSync) =>
  (db.prepare('SELECT name FROM schema_migrations ORDER BY rowid').all() as { name: string }[]).map(
    (row) => row.name,
  );

/** Starts the whole travel API on the data folder (every store applies its migrations), then stops it. */
async function startAndStop(): Promise<void> {
  const config = loadTravelApiConfig({
    TRAVEL_API_DATA_DIR: dataDir,
    TRAVEL_API_LOG_LEVEL: 'silent',
    TRAVEL_API_PUSH_WEBHOOK_URL: '',
    TRAVEL_API_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG: TEST_CONSUMER.slug,
    TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: TEST_CONSUMER.secret,
  });
  const app = await buildTravelApi({ config });
  await app.ready();
  await app.close();
}

/** Reads the travel API's database in the data folder, closing it afterwards. */
function withDatabase<T>(read: (db: DatabaseSync) => T): T {
  const db = openDatabase(dataDir);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe('migrations', () => {
  it('applies each migration once, in the order given, on a fresh database and again on the same one', () => {
    const migrations = [
      { name: 'test-001-first', sql: 'CREATE TABLE first (value TEXT) STRICT' },
      { name: 'test-002-second', sql: 'ALTER TABLE first ADD COLUMN more TEXT' },
    ];
    withDatabase((db) => {
      applyMigrations(db, migrations);
      applyMigrations(db, migrations);
      expect(recorded(db)).toEqual(['test-001-first', 'test-002-second']);
      db.exec("INSERT INTO first (value, more) VALUES ('a', 'b')");
    });
  });

  it('takes a renamed migration as applied where its former name was recorded, and records the new name', () => {
    withDatabase((db) => {
      applyMigrations(db, [{ name: 'test-003-table', sql: 'CREATE TABLE renamed (value TEXT) STRICT' }]);
      applyMigrations(db, [
        {
          name: 'test-004-table',
          formerly: ['test-003-table'],
          sql: 'CREATE TABLE renamed (value TEXT) STRICT',
        },
      ]);
      expect(recorded(db)).toEqual(['test-004-table']);
    });
  });

  it("gives every migration of the service's stores its own series and number", async () => {
    await startAndStop();
    const names = withDatabase(recorded);
    expect(names.length).toBeGreaterThan(10);
    const numbers = names.map((name) => /^([a-z]+-\d{3})-[a-z0-9-]+$/.exec(name)?.[1] ?? name);
    expect(numbers.filter((number, index) => numbers.indexOf(number) !== index)).toEqual([]);
    expect(names).toContain('bookings-004-cancellations-held-elsewhere');
  });

  it('starts on a database written before the cancellations migration was renumbered and routes were stored', async () => {
    await startAndStop();
    const fresh = withDatabase((db) => ({ names: recorded(db).toSorted(), tables: tables(db) }));
    // The database as the service left it before: the cancellations under bookings-003, no route column.
    withDatabase((db) =>
      db.exec(`UPDATE schema_migrations SET name = 'bookings-003-cancellations-held-elsewhere'
          WHERE name = 'bookings-004-cancellations-held-elsewhere';
        ALTER TABLE bookings DROP COLUMN route;
        DELETE FROM schema_migrations WHERE name = 'core-007-booking-route';`),
    );
    await startAndStop();
    withDatabase((db) => {
      expect(recorded(db).toSorted()).toEqual(fresh.names);
      expect(tables(db)).toEqual(fresh.tables);
      const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('bookings') as {
        name: string;
      }[];
      expect(columns.map((column) => column.name)).toContain('route');
    });
  });
});
