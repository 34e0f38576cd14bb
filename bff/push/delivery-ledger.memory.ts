import { BoundedIdSet } from '../notifications/bounded-id-set.ts';
import type { DeliveryLedger } from './delivery-ledger.ts';

export interface MemoryDeliveryLedgerOptions {
  /** Ids remembered per traveler. */
  idsPerTraveler: number;
  /** Travelers remembered; the one recorded least recently is forgotten first. */
  travelers: number;
}

export class MemoryDeliveryLedger implements DeliveryLedger {
  readonly #options: MemoryDeliveryLedgerOptions;
  readonly #byTraveler = new Map<string, BoundedIdSet>();

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
}
