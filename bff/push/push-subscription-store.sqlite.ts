import type { DatabaseSync } from 'node:sqlite';
import { openPrivateDatabase } from '../sessions/private-database.ts';
import type { PushSubscriptionStore, StoredPushSubscription } from './push-subscription-store.ts';

interface Row {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Push subscriptions in an embedded SQLite file under the data folder. */
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
  }

  save(travelerId: string, subscription: StoredPushSubscription): void {
    this.#db
      .prepare(
        `INSERT INTO push_subscriptions (endpoint, traveler_id, p256dh, auth, created_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (endpoint) DO UPDATE SET
           traveler_id = excluded.traveler_id, p256dh = excluded.p256dh, auth = excluded.auth`,
      )
      .run(
        subscription.endpoint,
        travelerId,
        subscription.keys.p256dh,
        subscription.keys.auth,
        new Date().toISOString(),
      );
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
        'SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE traveler_id = ? ORDER BY created_at',
      )
      .all(travelerId) as unknown as Row[];
    return rows.map((row) => ({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }));
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
