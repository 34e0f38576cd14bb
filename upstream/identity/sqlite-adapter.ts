import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Adapter, AdapterPayload } from 'oidc-provider';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS oidc_models (
    model TEXT NOT NULL,
    id TEXT NOT NULL,
    payload TEXT NOT NULL,
    grant_id TEXT,
    user_code TEXT,
    uid TEXT,
    expires_at INTEGER,
    PRIMARY KEY (model, id)
  ) STRICT;
  CREATE INDEX IF NOT EXISTS oidc_models_grant ON oidc_models (grant_id);
  CREATE INDEX IF NOT EXISTS oidc_models_uid ON oidc_models (model, uid);
  CREATE INDEX IF NOT EXISTS oidc_models_user_code ON oidc_models (model, user_code);
  CREATE INDEX IF NOT EXISTS oidc_models_expiry ON oidc_models (expires_at);
`;

/** Models whose records carry a grantId and are revoked with their grant. */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'ClientCredentials',
  'Client',
  'InitialAccessToken',
  'RegistrationAccessToken',
  'Interaction',
  'ReplayDetection',
  'PushedAuthorizationRequest',
  'Grant',
  'BackchannelAuthenticationRequest',
]);

/**
 * What a record is kept under: a SHA-256 of its id. The ids of tokens, codes, sessions and interactions
 * are their values (a refresh token's id is the refresh token), so the file never holds one.
 */
export function storedId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('base64url');
}

export function prepareAdapterSchema(db: DatabaseSync): void {
  db.exec(SCHEMA);
  // Records of versions that kept them under their ids, the id in the payload too (`jti`; the adapter
  // never stores it now): each re-keyed by the hash of its id, all in one transaction.
  const rows = db
    .prepare(`SELECT model, id FROM oidc_models WHERE json_extract(payload, '$.jti') = id`)
    .all() as { model: string; id: string }[];
  if (rows.length === 0) return;
  const rekey = db.prepare(
    `UPDATE oidc_models SET id = ?, payload = json_remove(payload, '$.jti') WHERE model = ? AND id = ?`,
  );
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const { model, id } of rows) rekey.run(storedId(id), model, id);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** Removes records past their expiry; called on start and periodically. */
export function purgeExpired(db: DatabaseSync, now = Date.now()): void {
  db.prepare('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now);
}

/**
 * oidc-provider's persistence on node:sqlite: sessions, grants, codes, refresh tokens and interactions
 * survive a restart of the identity platform. Records are kept under a hash of their id, without the id in
 * their payload: a copy of the file gives no refresh token, code or session cookie. oidc-provider hands
 * the adapter the id on every lookup by id, and the id is put back into what it gets. A lookup by uid
 * (a session, to check a token's session binding) gets the record without its id, which it only reads.
 */
export class SqliteAdapter implements Adapter {
  readonly #db: DatabaseSync;
  readonly #model: string;

  constructor(db: DatabaseSync, model: string) {
    this.#db = db;
    this.#model = model;
  }

  upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : null;
    this.#db
      .prepare(
        `INSERT INTO oidc_models (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
           user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
      )
      .run(
        this.#model,
        storedId(id),
        JSON.stringify(payload.jti === id ? { ...payload, jti: undefined } : payload),
        GRANTABLE.has(this.#model) ? (payload.grantId ?? null) : null,
        payload.userCode ?? null,
        payload.uid ?? null,
        expiresAt,
      );
    return Promise.resolve();
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    const payload = this.#findWhere('id = ?', storedId(id));
    if (payload === undefined || payload.jti !== undefined || this.#model === 'Client') {
      return Promise.resolve(payload);
    }
    return Promise.resolve({ ...payload, jti: id });
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return Promise.resolve(this.#findWhere('user_code = ?', userCode));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return Promise.resolve(this.#findWhere('uid = ?', uid));
  }

  consume(id: string): Promise<void> {
    this.#db
      .prepare(
        `UPDATE oidc_models SET payload = json_set(payload, '$.consumed', ?) WHERE model = ? AND id = ?`,
      )
      .run(Math.floor(Date.now() / 1000), this.#model, storedId(id));
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.#db.prepare('DELETE FROM oidc_models WHERE model = ? AND id = ?').run(this.#model, storedId(id));
    return Promise.resolve();
  }

  revokeByGrantId(grantId: string): Promise<void> {
    this.#db.prepare('DELETE FROM oidc_models WHERE grant_id = ?').run(grantId);
    return Promise.resolve();
  }

  #findWhere(condition: string, value: string): AdapterPayload | undefined {
    const row = this.#db
      .prepare(`SELECT payload, expires_at FROM oidc_models WHERE model = ? AND ${condition}`)
      .get(this.#model, value) as { payload: string; expires_at: number | null } | undefined;
    if (!row) return undefined;
    if (row.expires_at !== null && row.expires_at <= Date.now()) return undefined;
    return JSON.parse(row.payload) as AdapterPayload;
  }
}
