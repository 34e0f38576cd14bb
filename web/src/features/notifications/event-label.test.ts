import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import type { Translate } from '../../i18n/use-t.ts';
import { eventLabel } from './event-label.ts';

const t: Translate = (id, values) => i18n._(id, values);

describe('eventLabel', () => {
  it('names travel and booking events in the interface language', () => {
    expect(eventLabel('SEGMENT_DELAYED', t)).toBe('Delay');
    expect(eventLabel('BOOKING_CONFIRMED', t)).toBe('Booking confirmed');
    expect(eventLabel('BOOKING_CANCELLED', t)).toBe('Booking cancelled');
  });

  it('names a kind this version does not know from its code', () => {
    expect(eventLabel('SEAT_CHANGED', t)).toBe('seat changed');
  });
});
