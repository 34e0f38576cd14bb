import { describe, expect, it } from 'vitest';
import type { Notification } from '#shared/api/notifications.ts';
import { aNotification } from '../../../test-support/a-notification.ts';
import { notificationThreads } from './notification-threads.ts';

function notification(id: string, segmentId: string, minute: number): Notification {
  const at = new Date(Date.UTC(2026, 10, 24, 9, minute)).toISOString();
  return aNotification({ id, segmentId, createdAt: at, dispatchedAt: at });
}

describe('notificationThreads', () => {
  it('reads successive updates of one segment as its current status with the earlier ones as history', () => {
    const threads = notificationThreads([
      notification('c', 'flight', 30),
      notification('b', 'flight', 20),
      notification('a', 'flight', 10),
    ]);
    expect(threads).toHaveLength(1);
    expect(threads[0]?.current.id).toBe('c');
    expect(threads[0]?.earlier.map((item) => item.id)).toEqual(['b', 'a']);
  });

  it('keeps segments apart and orders threads by their newest update, whatever order they arrive in', () => {
    const threads = notificationThreads([
      notification('hotel-1', 'hotel', 15),
      notification('flight-2', 'flight', 40),
      notification('flight-1', 'flight', 10),
    ]);
    expect(threads.map((thread) => thread.current.id)).toEqual(['flight-2', 'hotel-1']);
    expect(threads[0]?.earlier.map((item) => item.id)).toEqual(['flight-1']);
    expect(threads[1]?.earlier).toEqual([]);
  });

  it('reads the later of two updates raised in the same millisecond as the current one, as the inbox lists them', () => {
    // The service's ids are random: the later update may well have the smaller id.
    const threads = notificationThreads([
      notification('0a1-gate-changed-again', 'flight', 30),
      notification('f9e-gate-changed', 'flight', 30),
      notification('c55-delayed', 'flight', 10),
    ]);
    expect(threads[0]?.current.id).toBe('0a1-gate-changed-again');
    expect(threads[0]?.earlier.map((item) => item.id)).toEqual(['f9e-gate-changed', 'c55-delayed']);
  });

  it('gives a lone notification a thread of its own', () => {
    expect(notificationThreads([notification('x', 'car', 5)])).toEqual([
      { key: 'trip-1/car', current: notification('x', 'car', 5), earlier: [] },
    ]);
  });
});
