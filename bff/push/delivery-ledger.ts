/**
 * What the BFF knows of a notification's delivery, per traveler: which ids were shown live to a visible
 * app (the fact the push decision rests on), and which push decisions are taken or under way, so that a
 * notification is decided once however often and wherever the push channel repeats it. In memory
 * (`delivery-ledger.memory.ts`) for one BFF process; several instances share one in Redis
 * (`delivery-ledger.redis.ts`), because the push, and its retry, may reach another instance than the
 * traveler's streams or the first attempt.
 */
export interface DeliveryLedger {
  recordShownLive(travelerId: string, notificationId: string): void | Promise<void>;
  wasShownLive(travelerId: string, notificationId: string): boolean | Promise<boolean>;
  /**
   * Claims the push decision of a notification: `claimed` (decide it, then settle the claim with its
   * token), `decided` (an earlier decision stands: this is a repeat) or `deciding` (another attempt holds
   * the claim now). A claim that is never settled lapses after `leaseMs`, so a decision cut short by a
   * crash is taken again by the next attempt.
   */
  claimPushDecision(
    travelerId: string,
    notificationId: string,
    leaseMs: number,
  ): PushDecisionClaim | Promise<PushDecisionClaim>;
  /**
   * Settles a claim: `decided` keeps the decision for every later repeat; `released` lets the next attempt
   * decide again (nothing reached the traveler). A claim that lapsed and was taken by another attempt is
   * left to that attempt.
   */
  settlePushDecision(
    travelerId: string,
    notificationId: string,
    token: string,
    settlement: 'decided' | 'released',
  ): void | Promise<void>;
}

export type PushDecisionClaim =
  { state: 'claimed'; token: string } | { state: 'decided' } | { state: 'deciding' };
