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

export function prepareAdapterSchema(db: DatabaseSync): void {
  db.exec(SCHEMA);
}

/** Removes records past their expiry; called on start and periodically. */
export function purgeExpired(db: DatabaseSync, now = Date.now()): void {
  db.prepare('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now);
}

/**
 * oidc-provider's persistence on node:sqlite: sessions, grants, codes, refresh tokens and interactions
 * survive a restart of the identity platform.
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
        id,
        JSON.stringify(payload),
        GRANTABLE.has(this.#model) ? (payload.grantId ?? null) : null,
        payload.userCode ?? null,
        payload.uid ?? null,
        expiresAt,
      );
    return Promise.resolve();
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return Promise.resolve(this.#findWhere('id = ?', id));
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
      .run(Math.floor(Date.now() / 1000), this.#model, id);
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.#db.prepare('DELETE FROM oidc_models WHERE model = ? AND id = ?').run(this.#model, id);
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
