import { z } from 'zod';

const base64Url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'URL-safe base64');

/** A browser's PushSubscription as its toJSON() gives it. */
export const PushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64Url.min(80).max(100),
    auth: base64Url.min(16).max(32),
  }),
});
export type PushSubscription = z.infer<typeof PushSubscriptionSchema>;

export interface StoredPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * Push subscriptions per traveler. An endpoint belongs to one traveler at a time: the browser that
 * subscribes again after another traveler signs in moves to that traveler.
 */
export interface PushSubscriptionStore {
  save(travelerId: string, subscription: StoredPushSubscription): void | Promise<void>;
  /** Removes the traveler's own subscription; false when they had none at that endpoint. */
  remove(travelerId: string, endpoint: string): boolean | Promise<boolean>;
  /** Removes an endpoint the push service reported gone (404/410). */
  removeEndpoint(endpoint: string): void | Promise<void>;
  list(travelerId: string): StoredPushSubscription[] | Promise<StoredPushSubscription[]>;
  count(travelerId: string): number | Promise<number>;
  close(): void;
}
