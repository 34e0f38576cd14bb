import { describe, expect, it } from 'vitest';
import { NotificationSchema, NotificationsPageSchema, NotificationsQuerySchema } from './notifications.ts';

const notification = {
  id: '9e3f1a2b-4c5d-4e6f-8a7b-9c0d1e2f3a4b',
  tripId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  segmentId: '2b3c4d5e-6f70-4b8c-9d0e-1f2a3b4c5d6e',
  eventType: 'SEGMENT_DELAYED',
  severity: 'warning',
  title: 'LH 1234 is delayed by 45 minutes',
  body: 'New departure 10:45 from FRA.',
  deepLink:
    'wayfare://trips/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d/segment/2b3c4d5e-6f70-4b8c-9d0e-1f2a3b4c5d6e',
  channel: 'push',
  dispatchedAt: '2027-01-01T10:00:00.000Z',
  readAt: null,
  isDedupSkipped: false,
  deliveryStatus: 'delivered',
  createdAt: '2027-01-01T10:00:00.000Z',
};

describe('NotificationOut', () => {
  it('accepts event types, severities, channels and statuses this client does not know yet', () => {
    const parsed = NotificationSchema.parse({
      ...notification,
      eventType: 'BAGGAGE_BELT_ASSIGNED',
      severity: 'notice',
      channel: 'sms',
      deliveryStatus: 'queued',
      extra: 1,
    });
    expect(parsed).toMatchObject({ eventType: 'BAGGAGE_BELT_ASSIGNED', extra: 1 });
  });

  it('allows null only for readAt', () => {
    expect(NotificationSchema.safeParse({ ...notification, readAt: '2027-01-01T11:00:00Z' }).success).toBe(
      true,
    );
    expect(NotificationSchema.safeParse({ ...notification, tripId: null }).success).toBe(false);
    expect(NotificationSchema.safeParse({ ...notification, dispatchedAt: null }).success).toBe(false);
  });
});

describe('notifications list', () => {
  it('wraps items in the cursor page envelope with nextCursor', () => {
    const page = NotificationsPageSchema.parse({
      items: [notification],
      meta: { totalCount: 1, pageSize: 20, nextCursor: null, unreadCount: 1 },
    });
    expect(page.meta.nextCursor).toBeNull();
  });

  it('defaults limit to 20 and unreadOnly to false, and bounds limit to 1..100', () => {
    expect(NotificationsQuerySchema.parse({})).toEqual({ limit: 20, unreadOnly: false });
    expect(NotificationsQuerySchema.parse({ limit: '5', unreadOnly: 'true', before: 'abc' })).toEqual({
      limit: 5,
      unreadOnly: true,
      before: 'abc',
    });
    expect(NotificationsQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    expect(NotificationsQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
  });
});
