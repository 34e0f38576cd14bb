import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { LoginTransaction, SessionStore, StoredSession } from './session-store.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    traveler_id TEXT,
    identity_session_id TEXT,
    last_seen_at INTEGER NOT NULL,
    absolute_expires_at INTEGER NOT NULL,
    data TEXT NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS sessions_by_traveler ON sessions (traveler_id);
  CREATE INDEX IF NOT EXISTS sessions_by_identity_session ON sessions (identity_session_id);
  CREATE TABLE IF NOT EXISTS login_transactions (
    id TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL,
    data TEXT NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS logout_token_ids (
    jti TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  ) STRICT;
`;

interface SessionRow {
  data: string;
  last_seen_at: number;
}

/** The embedded session store: one SQLite file under the BFF's data folder (WAL, synchronous calls). */
export class SqliteSessionStore implements SessionStore {
  readonly #db: DatabaseSync;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.#db = new DatabaseSync(path.join(dataDir, 'sessions.sqlite'));
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
    this.#db.exec(SCHEMA);
  }

  get(id: string): Promise<StoredSession | undefined> {
    const row = this.#db.prepare('SELECT data, last_seen_at FROM sessions WHERE id = ?').get(id) as
      SessionRow | undefined;
    return Promise.resolve(row ? toSession(row) : undefined);
  }

  set(session: StoredSession): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO sessions (id, traveler_id, identity_session_id, last_seen_at, absolute_expires_at, data)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET traveler_id = excluded.traveler_id,
           identity_session_id = excluded.identity_session_id, last_seen_at = excluded.last_seen_at,
           absolute_expires_at = excluded.absolute_expires_at, data = excluded.data`,
      )
      .run(
        session.id,
        session.travelerId ?? null,
        session.identitySessionId ?? null,
        session.lastSeenAt,
        session.absoluteExpiresAt,
        JSON.stringify(session),
      );
    return Promise.resolve();
  }

  delete(id: string): Promise<boolean> {
    const result = this.#db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
    return Promise.resolve(result.changes > 0);
  }

  touch(id: string, lastSeenAt: number): Promise<void> {
    this.#db
      .prepare('UPDATE sessions SET last_seen_at = max(last_seen_at, ?) WHERE id = ?')
      .run(lastSeenAt, id);
    return Promise.resolve();
  }

  findBySid(identitySessionId: string): Promise<StoredSession[]> {
    return Promise.resolve(this.#select('identity_session_id = ?', identitySessionId));
  }

  findBySubject(travelerId: string): Promise<StoredSession[]> {
    return Promise.resolve(this.#select('traveler_id = ?', travelerId));
  }

  findExpired(now: number, idleTimeoutMs: number): Promise<string[]> {
    this.#db.prepare('DELETE FROM login_transactions WHERE expires_at <= ?').run(now);
    this.#db.prepare('DELETE FROM logout_token_ids WHERE expires_at <= ?').run(now);
    const rows = this.#db
      .prepare('SELECT id FROM sessions WHERE absolute_expires_at <= ? OR last_seen_at <= ?')
      .all(now, now - idleTimeoutMs) as Array<{ id: string }>;
    return Promise.resolve(rows.map((row) => row.id));
  }

  saveLoginTransaction(transaction: LoginTransaction): Promise<void> {
    this.#db
      .prepare('INSERT INTO login_transactions (id, expires_at, data) VALUES (?, ?, ?)')
      .run(transaction.id, transaction.expiresAt, JSON.stringify(transaction));
    return Promise.resolve();
  }

  takeLoginTransaction(id: string): Promise<LoginTransaction | undefined> {
    const row = this.#db
      .prepare('DELETE FROM login_transactions WHERE id = ? RETURNING data, expires_at')
      .get(id) as { data: string; expires_at: number } | undefined;
    if (!row || row.expires_at <= Date.now()) return Promise.resolve(undefined);
    return Promise.resolve(JSON.parse(row.data) as LoginTransaction);
  }

  rememberLogoutTokenId(jti: string, expiresAt: number): Promise<boolean> {
    this.#db.prepare('DELETE FROM logout_token_ids WHERE expires_at <= ?').run(Date.now());
    const result = this.#db
      .prepare('INSERT INTO logout_token_ids (jti, expires_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING')
      .run(jti, expiresAt);
    return Promise.resolve(result.changes > 0);
  }

  close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
    return Promise.resolve();
  }

  #select(where: string, value: string): StoredSession[] {
    const rows = this.#db
      .prepare(`SELECT data, last_seen_at FROM sessions WHERE ${where}`)
      .all(value) as unknown as SessionRow[];
    return rows.map(toSession);
  }
}

function toSession(row: SessionRow): StoredSession {
  const session = JSON.parse(row.data) as StoredSession;
  return { ...session, lastSeenAt: row.last_seen_at };
}
