import { createECDH, createHash } from 'node:crypto';
import { z } from 'zod';

const base64Url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'URL-safe base64');

/** A P-256 public key as Web Push sends it: 65 bytes, uncompressed (0x04), a point on the curve. */
export function isP256PublicKey(base64url: string): boolean {
  const bytes = Buffer.from(base64url, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    const probe = createECDH('prime256v1');
    probe.generateKeys();
    probe.computeSecret(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A browser's PushSubscription as its toJSON() gives it, checked the way the push message will use it. */
export const PushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64Url
      .min(80)
      .max(100)
      .refine(isP256PublicKey, { message: 'Not a P-256 public key', params: { rule: 'p256_point' } }),
    auth: base64Url
      .min(16)
      .max(32)
      .refine((value) => Buffer.from(value, 'base64url').length === 16, {
        message: 'The auth secret must be 16 bytes',
        params: { rule: 'auth_secret_length' },
      }),
  }),
});
export type PushSubscription = z.infer<typeof PushSubscriptionSchema>;

export interface StoredPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /**
   * The session that made it (pushSessionRef of its id), whose end removes it; absent only for a
   * subscription stored before subscriptions were tied to sessions, which is never sent to.
   */
  sessionRef?: string;
}

/**
 * What stands for a session beside its subscriptions: a hash of its id, never the id itself (a session id
 * is a bearer credential, and these stores are not sealed).
 */
export function pushSessionRef(sessionId: string): string {
  return createHash('sha256').update(`push-subscriptions:${sessionId}`).digest('base64url');
}

/**
 * Push subscriptions per traveler, each tied to the session that made it. An endpoint belongs to one
 * traveler (and one session) at a time: the browser that subscribes again after another traveler signs
 * in moves to that traveler.
 */
export interface PushSubscriptionStore {
  save(
    travelerId: string,
    subscription: StoredPushSubscription & { sessionRef: string },
  ): void | Promise<void>;
  /** Removes every subscription the session made (it ended); returns how many. */
  removeSession(sessionRef: string): number | Promise<number>;
  /** Removes the traveler's own subscription; false when they had none at that endpoint. */
  remove(travelerId: string, endpoint: string): boolean | Promise<boolean>;
  /** Removes an endpoint the push service reported gone (404/410). */
  removeEndpoint(endpoint: string): void | Promise<void>;
  list(travelerId: string): StoredPushSubscription[] | Promise<StoredPushSubscription[]>;
  count(travelerId: string): number | Promise<number>;
  close(): void;
}
