import { randomUUID } from 'node:crypto';
import { BoundedIdSet } from '../notifications/bounded-id-set.ts';
import type { DeliveryLedger, PushDecisionClaim } from './delivery-ledger.ts';

export interface MemoryDeliveryLedgerOptions {
  /** Ids remembered per traveler. */
  idsPerTraveler: number;
  /** Travelers remembered; the one recorded least recently is forgotten first. */
  travelers: number;
  /** Push decisions remembered (taken or under way); the oldest is forgotten first. */
  pushDecisions: number;
}

type PushDecisionEntry = { state: 'deciding'; token: string; until: number } | { state: 'decided' };

export class MemoryDeliveryLedger implements DeliveryLedger {
  readonly #options: MemoryDeliveryLedgerOptions;
  readonly #byTraveler = new Map<string, BoundedIdSet>();
  readonly #pushDecisions = new Map<string, PushDecisionEntry>();

  constructor(options: MemoryDeliveryLedgerOptions) {
    this.#options = options;
  }

  recordShownLive(travelerId: string, notificationId: string): void {
    let ids = this.#byTraveler.get(travelerId);
    if (ids === undefined) {
      ids = new BoundedIdSet(this.#options.idsPerTraveler);
    } else {
      this.#byTraveler.delete(travelerId);
    }
    this.#byTraveler.set(travelerId, ids);
    ids.add(notificationId);
    if (this.#byTraveler.size > this.#options.travelers) {
      const oldest = this.#byTraveler.keys().next();
      if (!oldest.done) this.#byTraveler.delete(oldest.value);
    }
  }

  wasShownLive(travelerId: string, notificationId: string): boolean {
    return this.#byTraveler.get(travelerId)?.has(notificationId) ?? false;
  }

  claimPushDecision(travelerId: string, notificationId: string, leaseMs: number): PushDecisionClaim {
    const key = decisionKey(travelerId, notificationId);
    const held = this.#pushDecisions.get(key);
    if (held?.state === 'decided') return { state: 'decided' };
    if (held !== undefined && held.until > Date.now()) return { state: 'deciding' };
    const token = randomUUID();
    this.#pushDecisions.delete(key);
    this.#pushDecisions.set(key, { state: 'deciding', token, until: Date.now() + leaseMs });
    if (this.#pushDecisions.size > this.#options.pushDecisions) {
      const oldest = this.#pushDecisions.keys().next();
      if (!oldest.done) this.#pushDecisions.delete(oldest.value);
    }
    return { state: 'claimed', token };
  }

  settlePushDecision(
    travelerId: string,
    notificationId: string,
    token: string,
    settlement: 'decided' | 'released',
  ): void {
    const key = decisionKey(travelerId, notificationId);
    const held = this.#pushDecisions.get(key);
    if (held?.state !== 'deciding' || held.token !== token) return;
    if (settlement === 'decided') this.#pushDecisions.set(key, { state: 'decided' });
    else this.#pushDecisions.delete(key);
  }
}

function decisionKey(travelerId: string, notificationId: string): string {
  return `${travelerId}\n${notificationId}`;
}
