import type { DatabaseSync } from 'node:sqlite';
import { openPrivateDatabase } from '../sessions/private-database.ts';
import type { PushSubscriptionStore, StoredPushSubscription } from './push-subscription-store.ts';

interface Row {
  endpoint: string;
  p256dh: string;
  auth: string;
  session_ref: string | null;
}

/**
 * Push subscriptions in an embedded SQLite file under the data folder, each with the session that made
 * it. Rows from before subscriptions were tied to sessions cannot be ended with a sign-out: they are
 * dropped, and their travelers turn push alerts on again.
 */
export class SqlitePushSubscriptionStore implements PushSubscriptionStore {
  readonly #db: DatabaseSync;

  constructor(dataDir: string) {
    this.#db = openPrivateDatabase(dataDir, 'push-subscriptions.sqlite');
    this.#db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA busy_timeout = 2000;
      CREATE TABLE IF NOT EXISTS push_subscriptions (
        endpoint TEXT PRIMARY KEY,
        traveler_id TEXT NOT NULL,
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS push_subscriptions_traveler ON push_subscriptions (traveler_id);
    `);
    const columns = this.#db.prepare('PRAGMA table_info(push_subscriptions)').all() as { name: string }[];
    if (!columns.some((column) => column.name === 'session_ref')) {
      this.#db.exec(`
        ALTER TABLE push_subscriptions ADD COLUMN session_ref TEXT;
        DELETE FROM push_subscriptions WHERE session_ref IS NULL;
      `);
    }
    this.#db.exec(
      'CREATE INDEX IF NOT EXISTS push_subscriptions_session ON push_subscriptions (session_ref);',
    );
  }

  save(travelerId: string, subscription: StoredPushSubscription & { sessionRef: string }): void {
    this.#db
      .prepare(
        `INSERT INTO push_subscriptions (endpoint, traveler_id, p256dh, auth, created_at, session_ref)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (endpoint) DO UPDATE SET traveler_id = excluded.traveler_id,
           p256dh = excluded.p256dh, auth = excluded.auth, session_ref = excluded.session_ref`,
      )
      .run(
        subscription.endpoint,
        travelerId,
        subscription.keys.p256dh,
        subscription.keys.auth,
        new Date().toISOString(),
        subscription.sessionRef,
      );
  }

  removeSession(sessionRef: string): number {
    const result = this.#db.prepare('DELETE FROM push_subscriptions WHERE session_ref = ?').run(sessionRef);
    return Number(result.changes);
  }

  remove(travelerId: string, endpoint: string): boolean {
    const result = this.#db
      .prepare('DELETE FROM push_subscriptions WHERE traveler_id = ? AND endpoint = ?')
      .run(travelerId, endpoint);
    return Number(result.changes) > 0;
  }

  removeEndpoint(endpoint: string): void {
    this.#db.prepare('DELETE FROM push_subscriptions WHERE endpoint = ?').run(endpoint);
  }

  list(travelerId: string): StoredPushSubscription[] {
    const rows = this.#db
      .prepare(
        `SELECT endpoint, p256dh, auth, session_ref FROM push_subscriptions WHERE traveler_id = ?
         ORDER BY created_at`,
      )
      .all(travelerId) as unknown as Row[];
    return rows.map((row) => ({
      endpoint: row.endpoint,
      keys: { p256dh: row.p256dh, auth: row.auth },
      ...(row.session_ref === null ? {} : { sessionRef: row.session_ref }),
    }));
  }

  count(travelerId: string): number {
    const row = this.#db
      .prepare('SELECT COUNT(*) AS n FROM push_subscriptions WHERE traveler_id = ?')
      .get(travelerId) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
