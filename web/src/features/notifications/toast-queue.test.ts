import { describe, expect, it } from 'vitest';
import type { Notification } from '#shared/api/notifications.ts';
import { enqueueToast, shownOnPage } from './toast-queue.ts';

function news(id: string, eventType: string, about: Partial<Notification> = {}): Notification {
  return {
    id,
    tripId: 'trip-1',
    segmentId: 'segment-1',
    eventType,
    severity: 'info',
    title: id,
    body: id,
    deepLink: 'wayfare://trips/trip-1/segment/segment-1',
    channel: 'in_app',
    dispatchedAt: '2026-11-22T10:00:00Z',
    readAt: null,
    isDedupSkipped: false,
    deliveryStatus: 'delivered',
    createdAt: '2026-11-22T10:00:00Z',
    ...about,
  };
}

function booking(id: string, eventType: string, reference: string, replaced?: string): Notification {
  const facts = (ref: string) => ({
    reference: ref,
    kind: 'flight',
    cities: ['Zurich', 'London'],
    propertyName: null,
    startDate: '2027-04-25',
    endDate: '2027-04-25',
    totalPrice: { amount: 124.45, currency: 'EUR' },
    paymentMethod: null,
    refund: null,
  });
  return news(id, eventType, {
    facts: { booking: facts(reference), ...(replaced ? { replaced: facts(replaced) } : {}) },
  });
}

const ids = (queue: Notification[]) => queue.map((notification) => notification.id);

describe('the toasts to show', () => {
  it('keeps news of different things in the order they came, the first on screen', () => {
    let queue = enqueueToast([], news('delay', 'SEGMENT_DELAYED'));
    queue = enqueueToast(queue, news('gate', 'GATE_CHANGED'));
    queue = enqueueToast(queue, news('other', 'SEGMENT_DELAYED', { segmentId: 'segment-2' }));
    expect(ids(queue)).toEqual(['delay', 'gate', 'other']);
  });

  it('puts later news of the same thing in the place of the earlier', () => {
    let queue = enqueueToast([], news('delay', 'SEGMENT_DELAYED'));
    queue = enqueueToast(queue, booking('booked', 'BOOKING_CONFIRMED', 'ABC234'));
    queue = enqueueToast(queue, news('longer', 'SEGMENT_DELAYED'));
    queue = enqueueToast(queue, booking('cancelled', 'BOOKING_CANCELLED', 'ABC234'));
    expect(ids(queue)).toEqual(['longer', 'cancelled']);
    // A rebooking is news of the booking it replaces too.
    queue = enqueueToast(queue, booking('changed', 'BOOKING_CHANGED', 'XYZ789', 'ABC234'));
    expect(ids(queue)).toEqual(['longer', 'changed']);
    queue = enqueueToast(queue, news('cancelled-flight', 'SEGMENT_CANCELLED'));
    expect(ids(queue)).toEqual(['cancelled-flight', 'changed']);
  });

  it('keeps three waiting behind the one on screen, letting the oldest waiting go to the inbox', () => {
    let queue: Notification[] = [];
    for (const segment of ['1', '2', '3', '4', '5']) {
      queue = enqueueToast(queue, news(segment, 'GATE_CHANGED', { segmentId: segment }));
    }
    expect(ids(queue)).toEqual(['1', '3', '4', '5']);
  });
});

describe('what the page in view already shows', () => {
  it('is a trip’s news on its page, but for a check-in to do', () => {
    const page = [{ kind: 'trip', tripId: 'trip-1' }] as const;
    expect(shownOnPage(news('delay', 'SEGMENT_DELAYED'), page)).toBe(true);
    expect(shownOnPage(news('gate', 'GATE_CHANGED'), page)).toBe(true);
    expect(shownOnPage(news('check-in', 'CHECK_IN_OPEN'), page)).toBe(false);
    expect(shownOnPage(news('elsewhere', 'SEGMENT_DELAYED', { tripId: 'trip-2' }), page)).toBe(false);
  });

  it('is a booking’s news on its page, and a confirmation on the way from checkout', () => {
    const bookingPage = [{ kind: 'booking', reference: 'ABC234' }] as const;
    expect(shownOnPage(booking('cancelled', 'BOOKING_CANCELLED', 'ABC234'), bookingPage)).toBe(true);
    expect(shownOnPage(booking('changed', 'BOOKING_CHANGED', 'XYZ789', 'ABC234'), bookingPage)).toBe(true);
    expect(shownOnPage(booking('other', 'BOOKING_CONFIRMED', 'QRS456'), bookingPage)).toBe(false);
    expect(shownOnPage(news('delay', 'SEGMENT_DELAYED'), bookingPage)).toBe(false);
    const checkout = [{ kind: 'checkout' }] as const;
    expect(shownOnPage(booking('booked', 'BOOKING_CONFIRMED', 'QRS456'), checkout)).toBe(true);
    expect(shownOnPage(booking('cancelled', 'BOOKING_CANCELLED', 'QRS456'), checkout)).toBe(false);
    expect(shownOnPage(news('delay', 'SEGMENT_DELAYED'), [])).toBe(false);
  });
});
