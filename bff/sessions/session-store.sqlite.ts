import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { SessionCipher } from './session-cipher.ts';
import { openPrivateDatabase } from './private-database.ts';
import type { LoginTransaction, SessionStore, StoredSession } from './session-store.ts';

/**
 * Sessions and login transactions are kept sealed: the row key is a hash of the id (the cookie value never
 * sits on disk), and the data (tokens, PKCE verifier) is AES-256-GCM sealed and bound to that row. The
 * tables of the unsealed layout are dropped: their sessions end and travelers sign in again once.
 */
const SCHEMA = `
  DROP TABLE IF EXISTS sessions;
  DROP TABLE IF EXISTS login_transactions;
  CREATE TABLE IF NOT EXISTS sealed_sessions (
    id_hash TEXT PRIMARY KEY,
    traveler_id TEXT,
    identity_session_id TEXT,
    last_seen_at INTEGER NOT NULL,
    absolute_expires_at INTEGER NOT NULL,
    data TEXT NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS sealed_sessions_by_traveler ON sealed_sessions (traveler_id);
  CREATE INDEX IF NOT EXISTS sealed_sessions_by_identity_session ON sealed_sessions (identity_session_id);
  CREATE TABLE IF NOT EXISTS sealed_login_transactions (
    id_hash TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL,
    data TEXT NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS logout_token_ids (
    jti TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  ) STRICT;
`;

interface SessionRow {
  id_hash: string;
  data: string;
  last_seen_at: number;
}

/** The row key of an id: what is on disk instead of the id (a session id is a bearer credential). */
const idHash = (id: string): string => createHash('sha256').update(id).digest('base64url');

/** The embedded session store: one SQLite file under the BFF's data folder (WAL, synchronous calls). */
export class SqliteSessionStore implements SessionStore {
  readonly #db: DatabaseSync;
  readonly #cipher: SessionCipher;

  constructor(dataDir: string, cipher: SessionCipher) {
    this.#cipher = cipher;
    this.#db = openPrivateDatabase(dataDir, 'sessions.sqlite');
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
    this.#db.exec(SCHEMA);
  }

  get(id: string): Promise<StoredSession | undefined> {
    const row = this.#db
      .prepare('SELECT id_hash, data, last_seen_at FROM sealed_sessions WHERE id_hash = ?')
      .get(idHash(id)) as SessionRow | undefined;
    return Promise.resolve(row ? this.#toSession(row) : undefined);
  }

  set(session: StoredSession): Promise<void> {
    const key = idHash(session.id);
    this.#db
      .prepare(
        `INSERT INTO sealed_sessions (id_hash, traveler_id, identity_session_id, last_seen_at,
           absolute_expires_at, data)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id_hash) DO UPDATE SET traveler_id = excluded.traveler_id,
           identity_session_id = excluded.identity_session_id, last_seen_at = excluded.last_seen_at,
           absolute_expires_at = excluded.absolute_expires_at, data = excluded.data`,
      )
      .run(
        key,
        session.travelerId ?? null,
        session.identitySessionId ?? null,
        session.lastSeenAt,
        session.absoluteExpiresAt,
        this.#cipher.seal(JSON.stringify(session), `session:${key}`),
      );
    return Promise.resolve();
  }

  delete(id: string): Promise<boolean> {
    const result = this.#db.prepare('DELETE FROM sealed_sessions WHERE id_hash = ?').run(idHash(id));
    return Promise.resolve(result.changes > 0);
  }

  touch(id: string, lastSeenAt: number): Promise<void> {
    this.#db
      .prepare('UPDATE sealed_sessions SET last_seen_at = max(last_seen_at, ?) WHERE id_hash = ?')
      .run(lastSeenAt, idHash(id));
    return Promise.resolve();
  }

  findBySid(identitySessionId: string): Promise<StoredSession[]> {
    return Promise.resolve(this.#select('identity_session_id = ?', identitySessionId));
  }

  findBySubject(travelerId: string): Promise<StoredSession[]> {
    return Promise.resolve(this.#select('traveler_id = ?', travelerId));
  }

  findExpired(now: number, idleTimeoutMs: number): Promise<string[]> {
    this.#db.prepare('DELETE FROM sealed_login_transactions WHERE expires_at <= ?').run(now);
    this.#db.prepare('DELETE FROM logout_token_ids WHERE expires_at <= ?').run(now);
    const rows = this.#db
      .prepare(
        'SELECT id_hash, data, last_seen_at FROM sealed_sessions WHERE absolute_expires_at <= ? OR last_seen_at <= ?',
      )
      .all(now, now - idleTimeoutMs) as unknown as SessionRow[];
    const ids: string[] = [];
    for (const row of rows) {
      const session = this.#toSession(row);
      // A row no key opens any more can only be removed here.
      if (session) ids.push(session.id);
      else this.#db.prepare('DELETE FROM sealed_sessions WHERE id_hash = ?').run(row.id_hash);
    }
    return Promise.resolve(ids);
  }

  saveLoginTransaction(transaction: LoginTransaction): Promise<void> {
    const key = idHash(transaction.id);
    this.#db
      .prepare('INSERT INTO sealed_login_transactions (id_hash, expires_at, data) VALUES (?, ?, ?)')
      .run(key, transaction.expiresAt, this.#cipher.seal(JSON.stringify(transaction), `login:${key}`));
    return Promise.resolve();
  }

  takeLoginTransaction(id: string): Promise<LoginTransaction | undefined> {
    const key = idHash(id);
    const row = this.#db
      .prepare('DELETE FROM sealed_login_transactions WHERE id_hash = ? RETURNING data, expires_at')
      .get(key) as { data: string; expires_at: number } | undefined;
    if (!row || row.expires_at <= Date.now()) return Promise.resolve(undefined);
    const opened = this.#cipher.open(row.data, `login:${key}`);
    return Promise.resolve(opened === undefined ? undefined : (JSON.parse(opened) as LoginTransaction));
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
      .prepare(`SELECT id_hash, data, last_seen_at FROM sealed_sessions WHERE ${where}`)
      .all(value) as unknown as SessionRow[];
    return rows.flatMap((row) => this.#toSession(row) ?? []);
  }

  /** The session a row holds, or undefined when no key opens it (a retired key, a tampered row). */
  #toSession(row: SessionRow): StoredSession | undefined {
    const opened = this.#cipher.open(row.data, `session:${row.id_hash}`);
    if (opened === undefined) return undefined;
    return { ...(JSON.parse(opened) as StoredSession), lastSeenAt: row.last_seen_at };
  }
}
