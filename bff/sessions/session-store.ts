/** Who a session belongs to: a signed-in traveler, or a visitor holding a travel API guest token. */
export type SessionKind = 'traveler' | 'guest';

/**
 * One server-side session. Tokens live here and nowhere else: the browser holds only the opaque id.
 * Times are epoch milliseconds.
 */
export interface StoredSession {
  id: string;
  kind: SessionKind;
  createdAt: number;
  lastSeenAt: number;
  /** The session ends at this instant whatever the activity. */
  absoluteExpiresAt: number;
  /** Traveler sessions: the identity platform's `sub`, which is the travel API's traveler id. */
  travelerId?: string;
  name?: string;
  email?: string;
  /** Traveler sessions: the profile's locale as the BFF last relayed it, so the app's first paint is in its language. */
  locale?: string;
  /** Traveler sessions: the identity platform's session id (`sid`), matched by back-channel logout. */
  identitySessionId?: string;
  accessToken?: string;
  accessTokenExpiresAt?: number;
  /** When the current access token was obtained; a forced refresh just after another one is skipped. */
  accessTokenIssuedAt?: number;
  refreshToken?: string;
  /** Guest sessions: the travel API's guest session token. */
  guestToken?: string;
}

/** What /auth/login remembers until /auth/callback: bound to the browser by a short-lived cookie. */
export interface LoginTransaction {
  id: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  expiresAt: number;
}

/**
 * The session store. The embedded default is node:sqlite (SqliteSessionStore); a shared engine such as
 * Redis implements the same interface so that several BFF instances see the same sessions.
 */
export interface SessionStore {
  get(id: string): Promise<StoredSession | undefined>;
  /** Inserts or replaces the whole session. */
  set(session: StoredSession): Promise<void>;
  /** Removes the session; true when it existed (so that exactly one caller reports its end). */
  delete(id: string): Promise<boolean>;
  /** Records activity for the idle timeout. */
  touch(id: string, lastSeenAt: number): Promise<void>;
  /** Sessions opened through one identity platform session (back-channel logout by `sid`). */
  findBySid(identitySessionId: string): Promise<StoredSession[]>;
  /** Sessions of one traveler (back-channel logout by `sub`). */
  findBySubject(travelerId: string): Promise<StoredSession[]>;
  /** Ids of sessions past their absolute lifetime or idle for longer than idleTimeoutMs at `now`. */
  findExpired(now: number, idleTimeoutMs: number): Promise<string[]>;

  saveLoginTransaction(transaction: LoginTransaction): Promise<void>;
  /** Returns and removes the transaction: a callback can be completed once. */
  takeLoginTransaction(id: string): Promise<LoginTransaction | undefined>;

  /**
   * Remembers a back-channel logout token id until it expires. False when it was already seen
   * (a replay).
   */
  rememberLogoutTokenId(jti: string, expiresAt: number): Promise<boolean>;

  close(): Promise<void>;
}
