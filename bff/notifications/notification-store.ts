import type {
  NotificationResyncReason,
  NotificationStreamState,
} from '#shared/api/notification-stream-events.ts';
import { NotificationSchema, type Notification } from '#shared/upstream/notifications.ts';

/** What travels on a traveler's channel, from the holder of the traveler's upstream to every hub. */
export type ChannelMessage =
  | { type: 'notification'; entry: string; ack: string; notification: Notification; traceparent?: string }
  | { type: 'status'; state: NotificationStreamState }
  | { type: 'resync'; reason: NotificationResyncReason };

/** Events about browser streams that any hub sharing the store may hold. */
export type ControlMessage =
  | { type: 'session-ended'; sessionId: string; reason: string }
  | { type: 'visibility'; sessionId: string; tabId: string; visible: boolean };

/** What a store tells the hub that listens to it. */
export interface NotificationStoreListener {
  /** A message of a traveler's channel this hub joined. */
  channel(travelerId: string, message: ChannelMessage): void;
  /** A control message sent by another hub sharing the store. */
  control(message: ControlMessage): void;
  /** The store's channels were lost and are back: what was published meanwhile has to be replayed. */
  resubscribed(): void;
  /** Another hub let go of the traveler's lease (it drains or its last stream left): take it now. */
  leaseReleased(travelerId: string): void;
}

/** A notification in a traveler's log, with its position (`entry`, ordered by `compareEntries`). */
export interface LoggedNotification {
  entry: string;
  notification: Notification;
}

/** A notification entering a traveler's store; `ack` is counted by every hub that delivered it ('' for none). */
export interface AdmitInput {
  notification: Notification;
  mode: 'publish' | 'baseline';
  ack: string;
  /** The trace the notification came with (W3C traceparent), carried to every hub that delivers it. */
  traceparent?: string | undefined;
}

/** How much a store keeps per traveler; the same settings whichever store holds it. */
export interface NotificationStoreLimits {
  /** Notification ids remembered per traveler for dedupe. */
  dedupeCapacity: number;
  /** Notifications kept per traveler for Last-Event-ID resume. */
  resumeCapacity: number;
}

/**
 * The state a notification hub shares and the channel it fans out on. In-process
 * (`notification-store.memory.ts`) for one BFF; Redis (`notification-store.redis.ts`) for a fleet of
 * instances, where exactly one of them (the lease holder) reads a traveler's upstream stream.
 */
export interface NotificationStore {
  /**
   * How often a hub checks the leases of its travelers (the Redis store's instance heartbeat runs as
   * often); undefined when a lease is held until it is released.
   */
  readonly leaseRenewMs: number | undefined;
  listen(listener: NotificationStoreListener): void;
  /** Starts receiving the traveler's channel. */
  join(travelerId: string): Promise<void>;
  /** Stops receiving the traveler's channel. */
  leave(travelerId: string): void;
  /** Takes the traveler's upstream lease, or keeps it; true while this hub holds it. */
  acquireLease(travelerId: string): Promise<boolean>;
  releaseLease(travelerId: string): Promise<void>;
  /**
   * A notification enters once: remembered among the seen ids, appended to the log, then published on
   * the traveler's channel (`baseline` only records). Returns how many hubs it reached, -1 for a duplicate.
   */
  admit(travelerId: string, input: AdmitInput): Promise<number>;
  publish(travelerId: string, message: Exclude<ChannelMessage, { type: 'notification' }>): Promise<void>;
  /** The newest id of the last catch-up; '' for a baseline of an empty list; null before any baseline. */
  readCheckpoint(travelerId: string): Promise<string | null>;
  /** Written only while this hub holds the lease. */
  writeCheckpoint(travelerId: string, head: string): Promise<void>;
  upstreamState(travelerId: string): Promise<NotificationStreamState | null>;
  setUpstreamState(travelerId: string, state: NotificationStreamState): Promise<void>;
  /** The traveler's log, oldest first. */
  log(travelerId: string): Promise<LoggedNotification[]>;
  /** What the log holds after `entry`; undefined when `entry` is no longer in it. */
  logAfter(travelerId: string, entry: string): Promise<LoggedNotification[] | undefined>;
  /** When this hub's most recent visible tab of the traveler became visible (undefined: none visible). */
  shareVisibility(travelerId: string, since: number | undefined): void;
  /** True when another hub has a tab of the traveler that became visible after `since`. */
  visibleElsewhereSince(travelerId: string, since: number): Promise<boolean>;
  /** Sends a control message to the other hubs. */
  broadcast(message: ControlMessage): void;
  /** A fresh acknowledgement key for one published notification. */
  newAck(travelerId: string): string;
  acknowledge(ack: string): Promise<void>;
  /** Resolves once `ack` was acknowledged `count` times, or after `timeoutMs`. */
  waitForAcks(ack: string, count: number, timeoutMs: number): Promise<void>;
  /** Whether a session still exists (a hub that lost its channels may have missed its end). */
  sessionExists(sessionId: string): Promise<boolean>;
  /** Resolves once the store answers commands again, or after `timeoutMs`. */
  reachable(timeoutMs: number): Promise<void>;
  /**
   * This hub leaves for good (its instance drains): once every lease release it sent is through, no
   * lease can still name it (a fleet store removes its heartbeat).
   */
  retire(): Promise<void>;
  close(): void;
}

/**
 * Orders log entries (`ms-seq`, as Redis stream ids; a missing sequence counts as 0). The hub compares
 * each delivery's entry with the last one: read in place, without splitting either into an array.
 */
export function compareEntries(a: string, b: string): number {
  const aDash = a.indexOf('-');
  const bDash = b.indexOf('-');
  return entryPart(a, 0, aDash) - entryPart(b, 0, bDash) || sequenceOf(a, aDash) - sequenceOf(b, bDash);
}

function sequenceOf(entry: string, dash: number): number {
  return dash === -1 ? 0 : entryPart(entry, dash + 1, entry.indexOf('-', dash + 1));
}

/** The number written from `from` up to `to` (-1: to the end). */
function entryPart(entry: string, from: number, to: number): number {
  return Number(to === -1 ? entry.slice(from) : entry.slice(from, to));
}

/** An id that is also a valid SSE `id:` (no line break, no NUL), so it can be the browser's Last-Event-ID. */
export const EVENT_ID = /^[^\r\n\0]+$/;

export function parseNotification(data: string): Notification | undefined {
  try {
    const parsed = NotificationSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
