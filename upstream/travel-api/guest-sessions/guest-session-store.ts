import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { GUEST_TOKEN_PREFIX, type GuestSession } from '#shared/upstream/guest-session.ts';
import { applyMigrations } from '../db.ts';

export interface Guest {
  id: string;
  expiresAt: Date;
}

/** Guest session tokens: opaque random values, stored only as their SHA-256, valid for a fixed lifetime. */
export class GuestSessionStore {
  readonly #db: DatabaseSync;
  readonly #lifetimeMs: number;

  constructor(db: DatabaseSync, lifetimeSeconds: number) {
    this.#db = db;
    this.#lifetimeMs = lifetimeSeconds * 1000;
    applyMigrations(db, [
      {
        name: 'core-001-guest-sessions',
        sql: `CREATE TABLE guest_sessions (
          token_hash TEXT PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL,
          expires_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX guest_sessions_expiry ON guest_sessions (expires_at);`,
      },
    ]);
  }

  create(now = new Date()): GuestSession {
    const guestToken = `${GUEST_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const expiresAt = new Date(now.getTime() + this.#lifetimeMs).toISOString();
    this.#db.prepare('DELETE FROM guest_sessions WHERE expires_at <= ?').run(now.toISOString());
    this.#db
      .prepare('INSERT INTO guest_sessions (token_hash, id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(hashToken(guestToken), randomUUID(), now.toISOString(), expiresAt);
    return { guestToken, expiresAt };
  }

  /** The live guest session a token stands for, or undefined when unknown or expired. */
  resolve(token: string, now = new Date()): Guest | undefined {
    const row = this.#db
      .prepare('SELECT id, expires_at FROM guest_sessions WHERE token_hash = ? AND expires_at > ?')
      .get(hashToken(token), now.toISOString()) as { id: string; expires_at: string } | undefined;
    return row ? { id: row.id, expiresAt: new Date(row.expires_at) } : undefined;
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
