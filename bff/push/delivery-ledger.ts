/**
 * Which notification ids were delivered live to a visible app, per traveler: the fact the push
 * decision rests on. In memory (`delivery-ledger.memory.ts`) for one BFF process; several instances
 * share one in Redis (`delivery-ledger.redis.ts`), because the push may reach another instance than the
 * traveler's streams.
 */
export interface DeliveryLedger {
  recordShownLive(travelerId: string, notificationId: string): void | Promise<void>;
  wasShownLive(travelerId: string, notificationId: string): boolean | Promise<boolean>;
}
