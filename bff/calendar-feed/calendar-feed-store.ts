import { createHash, randomBytes } from 'node:crypto';

/** A feed token: 256 bits from the CSPRNG, base64url (43 characters), the secret part of the feed's URL. */
export function newFeedToken(): string {
  return randomBytes(32).toString('base64url');
}

export const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * What the stores keep for a feed token: a hash of it, never the token (the token is a bearer credential
 * for the traveler's trips, and these stores are not sealed).
 */
export function feedTokenHash(token: string): string {
  return createHash('sha256').update(`calendar-feed:${token}`).digest('base64url');
}

export interface CalendarFeed {
  travelerId: string;
  /** When the current address was made (turned on or rotated), ISO 8601 UTC. */
  createdAt: string;
}

/** One calendar event as the ledger of SEQUENCE numbers sees it: its UID and a digest of its content. */
export interface EventRevision {
  uid: string;
  fingerprint: string;
}

/**
 * Calendar feeds: at most one per traveler, found by the hash of its token, and the SEQUENCE number of
 * every event the traveler's feed has shown (kept per traveler, so that a rotated or re-enabled feed goes
 * on counting up where the calendar left off).
 */
export interface CalendarFeedStore {
  /** Makes `tokenHash` the traveler's feed, replacing (and so revoking) any earlier one. */
  enable(travelerId: string, tokenHash: string, createdAt: string): Promise<void>;
  /** Revokes the traveler's feed; false when there was none. */
  disable(travelerId: string): Promise<boolean>;
  /** The feed of a token hash, when it is the traveler's current one. */
  findByTokenHash(tokenHash: string): Promise<CalendarFeed | undefined>;
  /** The traveler's feed, when it is on. */
  findByTraveler(travelerId: string): Promise<CalendarFeed | undefined>;
  /**
   * The SEQUENCE of each event: 0 the first time its UID is seen, one more each time its fingerprint
   * differs from the one last recorded.
   */
  sequences(travelerId: string, revisions: readonly EventRevision[]): Promise<Map<string, number>>;
  close(): void;
}
