import type { NotificationStreamState } from '#shared/api/notification-stream-events.ts';
import type { Notification } from '#shared/upstream/notifications.ts';
import { BoundedIdSet } from './bounded-id-set.ts';
import type {
  AdmitInput,
  ChannelMessage,
  LoggedNotification,
  NotificationStore,
  NotificationStoreLimits,
  NotificationStoreListener,
} from './notification-store.ts';
import { RecentBuffer } from './recent-buffer.ts';

interface TravelerState {
  seen: BoundedIdSet;
  /** The log, its items keyed by entry. */
  log: RecentBuffer<{ id: string; notification: Notification }>;
  checkpoint: string | null;
  state: NotificationStreamState | null;
}

interface AckWaiter {
  count: number;
  resolve: () => void;
}

/**
 * The notification store of one BFF process: the traveler's channel is a function call, the lease is
 * always this process's, and a traveler's state lives while the hub has joined their channel.
 */
export class MemoryNotificationStore implements NotificationStore {
  readonly leaseRenewMs = undefined;
  readonly #limits: NotificationStoreLimits;
  readonly #travelers = new Map<string, TravelerState>();
  readonly #acks = new Map<string, { count: number; waiters: AckWaiter[] }>();
  #listener: NotificationStoreListener | undefined;
  #sequence = 0;

  constructor(limits: NotificationStoreLimits) {
    this.#limits = limits;
  }

  listen(listener: NotificationStoreListener): void {
    this.#listener = listener;
  }

  join(travelerId: string): Promise<void> {
    if (!this.#travelers.has(travelerId)) {
      this.#travelers.set(travelerId, {
        seen: new BoundedIdSet(this.#limits.dedupeCapacity),
        log: new RecentBuffer(this.#limits.resumeCapacity),
        checkpoint: null,
        state: null,
      });
    }
    return Promise.resolve();
  }

  leave(travelerId: string): void {
    this.#travelers.delete(travelerId);
  }

  acquireLease(travelerId: string): Promise<boolean> {
    return Promise.resolve(this.#travelers.has(travelerId));
  }

  releaseLease(): Promise<void> {
    return Promise.resolve();
  }

  admit(travelerId: string, { notification, mode, ack, traceparent }: AdmitInput): Promise<number> {
    const traveler = this.#travelers.get(travelerId);
    if (traveler === undefined) return Promise.resolve(0);
    if (!traveler.seen.add(notification.id)) return Promise.resolve(-1);
    this.#sequence += 1;
    const entry = `0-${this.#sequence}`;
    traveler.log.push({ id: entry, notification });
    if (mode === 'baseline') return Promise.resolve(0);
    this.#listener?.channel(travelerId, {
      type: 'notification',
      entry,
      ack,
      notification,
      ...(traceparent === undefined ? {} : { traceparent }),
    });
    return Promise.resolve(1);
  }

  publish(travelerId: string, message: Exclude<ChannelMessage, { type: 'notification' }>): Promise<void> {
    if (this.#travelers.has(travelerId)) this.#listener?.channel(travelerId, message);
    return Promise.resolve();
  }

  readCheckpoint(travelerId: string): Promise<string | null> {
    return this.#read(travelerId, 'checkpoint');
  }

  writeCheckpoint(travelerId: string, head: string): Promise<void> {
    return this.#write(travelerId, { checkpoint: head });
  }

  upstreamState(travelerId: string): Promise<NotificationStreamState | null> {
    return this.#read(travelerId, 'state');
  }

  setUpstreamState(travelerId: string, state: NotificationStreamState): Promise<void> {
    return this.#write(travelerId, { state });
  }

  #read<K extends 'checkpoint' | 'state'>(travelerId: string, field: K): Promise<TravelerState[K]> {
    return Promise.resolve(this.#travelers.get(travelerId)?.[field] ?? null);
  }

  #write(travelerId: string, fields: Partial<Pick<TravelerState, 'checkpoint' | 'state'>>): Promise<void> {
    const traveler = this.#travelers.get(travelerId);
    if (traveler) Object.assign(traveler, fields);
    return Promise.resolve();
  }

  log(travelerId: string): Promise<LoggedNotification[]> {
    const items = this.#travelers.get(travelerId)?.log.items() ?? [];
    return Promise.resolve(items.map(({ id, notification }) => ({ entry: id, notification })));
  }

  logAfter(travelerId: string, entry: string): Promise<LoggedNotification[] | undefined> {
    const after = this.#travelers.get(travelerId)?.log.after(entry);
    if (after === undefined || !after.found) return Promise.resolve(undefined);
    return Promise.resolve(after.items.map(({ id, notification }) => ({ entry: id, notification })));
  }

  /** One process sees all of its tabs itself. */
  shareVisibility(): void {}

  visibleElsewhereSince(): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** No other hub shares this store. */
  broadcast(): void {}

  newAck(travelerId: string): string {
    this.#sequence += 1;
    return `${travelerId}:${this.#sequence}`;
  }

  acknowledge(ack: string): Promise<void> {
    const acks = this.#acks.get(ack) ?? { count: 0, waiters: [] };
    acks.count += 1;
    this.#acks.set(ack, acks);
    for (const waiter of acks.waiters) if (acks.count >= waiter.count) waiter.resolve();
    return Promise.resolve();
  }

  waitForAcks(ack: string, count: number, timeoutMs: number): Promise<void> {
    const acks = this.#acks.get(ack) ?? { count: 0, waiters: [] };
    if (acks.count >= count) {
      this.#acks.delete(ack);
      return Promise.resolve();
    }
    this.#acks.set(ack, acks);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#acks.delete(ack);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      acks.waiters.push({ count, resolve: done });
    });
  }

  /** Session ends reach the hub directly in one process. */
  sessionExists(): Promise<boolean> {
    return Promise.resolve(true);
  }

  reachable(): Promise<void> {
    return Promise.resolve();
  }

  async retire(): Promise<void> {
    // One process holds every lease: there is no other hub to hand them to.
  }

  close(): void {
    this.#travelers.clear();
  }
}
