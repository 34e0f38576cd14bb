import { randomUUID } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type {
  KnownNotificationChannel,
  KnownNotificationDeliveryStatus,
  Notification,
  NotificationFacts,
  NotificationsPage,
  NotificationsQuery,
} from '#shared/upstream/notifications.ts';
import { ServiceError } from '../service-error.ts';
import { applyMigrations, transaction, type Migration } from '../db.ts';

export const NOTIFICATION_MIGRATIONS: readonly Migration[] = [
  {
    name: 'notifications-001-inbox',
    sql: `
      CREATE TABLE notifications (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        traveler_id TEXT NOT NULL,
        trip_id TEXT NOT NULL,
        segment_id TEXT NOT NULL,
        event_type TEXT NOT NULL,
        severity TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        deep_link TEXT NOT NULL,
        channel TEXT NOT NULL,
        dispatched_at TEXT NOT NULL,
        read_at TEXT,
        is_dedup_skipped INTEGER NOT NULL,
        delivery_status TEXT NOT NULL,
        dedup_key TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX notifications_traveler ON notifications (traveler_id, seq DESC);
      CREATE INDEX notifications_dedup ON notifications (traveler_id, dedup_key, created_at);
    `,
  },
  { name: 'notifications-002-facts', sql: 'ALTER TABLE notifications ADD COLUMN facts TEXT' },
];

export interface NewNotification {
  travelerId: string;
  tripId: string;
  segmentId: string;
  eventType: string;
  severity: string;
  title: string;
  body: string;
  /** The event as values, for clients that write it in their traveler's language; absent for text alone. */
  facts?: NotificationFacts | undefined;
  /** Whether the notification goes out on the push channel too (false when that channel is off). */
  push: boolean;
}

export interface NotificationInboxOptions {
  appScheme: string;
  /** A notification with the same traveler, segment, kind and text as one this recent is not pushed again. */
  dedupWindowSeconds: number;
}

interface NotificationRow {
  seq: number;
  id: string;
  trip_id: string;
  segment_id: string;
  event_type: string;
  severity: string;
  title: string;
  body: string;
  deep_link: string;
  channel: string;
  dispatched_at: string;
  read_at: string | null;
  is_dedup_skipped: number;
  delivery_status: string;
  created_at: string;
  facts: string | null;
}

const COLUMNS = `seq, id, trip_id, segment_id, event_type, severity, title, body, deep_link, channel,
  dispatched_at, read_at, is_dedup_skipped, delivery_status, created_at, facts`;

/**
 * Travelers' in-app notifications with their read state and push delivery status, newest first.
 * Pages are addressed by an opaque cursor over the insertion sequence, stable while new ones arrive.
 */
export class NotificationInbox {
  readonly #db: DatabaseSync;
  readonly #options: NotificationInboxOptions;

  constructor(db: DatabaseSync, options: NotificationInboxOptions) {
    applyMigrations(db, NOTIFICATION_MIGRATIONS);
    this.#db = db;
    this.#options = options;
  }

  /** Persists a new notification; a repeat within the dedup window is kept but marked not pushed. */
  create(input: NewNotification, now = new Date()): Notification {
    const id = randomUUID();
    const timestamp = now.toISOString();
    const dedupKey = JSON.stringify([input.segmentId, input.eventType, input.title, input.body]);
    const windowStart = new Date(now.getTime() - this.#options.dedupWindowSeconds * 1000).toISOString();
    return transaction(this.#db, () => {
      const repeat =
        input.push &&
        this.#db
          .prepare(
            'SELECT 1 AS found FROM notifications WHERE traveler_id = ? AND dedup_key = ? AND created_at > ? LIMIT 1',
          )
          .get(input.travelerId, dedupKey, windowStart) !== undefined;
      const channel: KnownNotificationChannel = input.push ? 'push' : 'in_app';
      const status: KnownNotificationDeliveryStatus = !input.push
        ? 'delivered'
        : repeat
          ? 'skipped'
          : 'pending';
      this.#db
        .prepare(
          `INSERT INTO notifications (id, traveler_id, trip_id, segment_id, event_type, severity, title, body,
             deep_link, channel, dispatched_at, read_at, is_dedup_skipped, delivery_status, dedup_key, created_at, facts)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          input.travelerId,
          input.tripId,
          input.segmentId,
          input.eventType,
          input.severity,
          input.title,
          input.body,
          `${this.#options.appScheme}://trips/${input.tripId}/segment/${input.segmentId}`,
          channel,
          timestamp,
          repeat ? 1 : 0,
          status,
          dedupKey,
          timestamp,
          input.facts ? JSON.stringify(input.facts) : null,
        );
      return this.#get(id) as Notification;
    });
  }

  /** One page, newest first. `before` is a cursor from a previous page's meta.nextCursor. */
  list(travelerId: string, query: NotificationsQuery): NotificationsPage {
    const beforeSeq = query.before === undefined ? undefined : decodeCursor(query.before);
    const unread = query.unreadOnly ? ' AND read_at IS NULL' : '';
    const params: SQLInputValue[] = [travelerId];
    let where = `traveler_id = ?${unread}`;
    if (beforeSeq !== undefined) {
      where += ' AND seq < ?';
      params.push(beforeSeq);
    }
    const rows = this.#db
      .prepare(`SELECT ${COLUMNS} FROM notifications WHERE ${where} ORDER BY seq DESC LIMIT ?`)
      .all(...params, query.limit + 1) as unknown as NotificationRow[];
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const counts = this.#db
      .prepare(
        `SELECT COUNT(*) AS total, COALESCE(SUM(read_at IS NULL), 0) AS unread
         FROM notifications WHERE traveler_id = ?${unread}`,
      )
      .get(travelerId) as { total: number; unread: number };
    return {
      items: page.map(toNotification),
      meta: {
        totalCount: counts.total,
        pageSize: page.length,
        nextCursor: rows.length > query.limit && last ? encodeCursor(last.seq) : null,
        unreadCount: counts.unread,
      },
    };
  }

  /** Marks one of the traveler's notifications read; idempotent (the first readAt stays). */
  markRead(travelerId: string, id: string, now = new Date()): Notification | undefined {
    this.#db
      .prepare('UPDATE notifications SET read_at = COALESCE(read_at, ?) WHERE id = ? AND traveler_id = ?')
      .run(now.toISOString(), id, travelerId);
    return this.#get(id, travelerId);
  }

  /** Marks every unread notification of the traveler read; returns how many changed. */
  markAllRead(travelerId: string, now = new Date()): number {
    const result = this.#db
      .prepare('UPDATE notifications SET read_at = ? WHERE traveler_id = ? AND read_at IS NULL')
      .run(now.toISOString(), travelerId);
    return Number(result.changes);
  }

  setDeliveryStatus(id: string, status: KnownNotificationDeliveryStatus): void {
    this.#db.prepare('UPDATE notifications SET delivery_status = ? WHERE id = ?').run(status, id);
  }

  get(travelerId: string, id: string): Notification | undefined {
    return this.#get(id, travelerId);
  }

  #get(id: string, travelerId?: string): Notification | undefined {
    const row = (
      travelerId === undefined
        ? this.#db.prepare(`SELECT ${COLUMNS} FROM notifications WHERE id = ?`).get(id)
        : this.#db
            .prepare(`SELECT ${COLUMNS} FROM notifications WHERE id = ? AND traveler_id = ?`)
            .get(id, travelerId)
    ) as NotificationRow | undefined;
    return row ? toNotification(row) : undefined;
  }
}

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    tripId: row.trip_id,
    segmentId: row.segment_id,
    eventType: row.event_type,
    severity: row.severity,
    title: row.title,
    body: row.body,
    deepLink: row.deep_link,
    channel: row.channel,
    dispatchedAt: row.dispatched_at,
    readAt: row.read_at,
    isDedupSkipped: row.is_dedup_skipped === 1,
    deliveryStatus: row.delivery_status,
    createdAt: row.created_at,
    facts: row.facts === null ? null : (JSON.parse(row.facts) as NotificationFacts),
  };
}

const CURSOR_PREFIX = 'n1.';

function encodeCursor(seq: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${seq}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const seq = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(seq) || seq < 1 || encodeCursor(seq) !== cursor) {
    throw new ServiceError('VALIDATION_ERROR', {
      message: 'The request failed validation',
      details: [
        { field: 'before', code: 'cursor_invalid', message: 'before is not a cursor this service issued' },
      ],
    });
  }
  return seq;
}
