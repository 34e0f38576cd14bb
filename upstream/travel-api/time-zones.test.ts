import { describe, expect, it } from 'vitest';
import { addDays, localDate, offsetMinutes, toLocalIso, zonedInstant } from './time-zones.ts';

describe('time zones', () => {
  it('writes local times with the offset in force, summer and winter', () => {
    expect(toLocalIso(new Date('2026-07-01T12:00:00Z'), 'Europe/London')).toBe('2026-07-01T13:00:00+01:00');
    expect(toLocalIso(new Date('2026-01-01T12:00:00Z'), 'Europe/London')).toBe('2026-01-01T12:00:00+00:00');
    expect(toLocalIso(new Date('2026-01-01T12:00:00Z'), 'America/New_York')).toBe(
      '2026-01-01T07:00:00-05:00',
    );
    expect(toLocalIso(new Date('2026-01-01T12:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01T17:30:00+05:30');
  });

  it('finds the instant of a local wall-clock time, across a DST change', () => {
    expect(zonedInstant('2026-03-29', 9 * 60, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T07:00:00.000Z',
    );
    expect(zonedInstant('2026-03-28', 9 * 60, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-28T08:00:00.000Z',
    );
    expect(offsetMinutes(new Date('2026-06-01T00:00:00Z'), 'Australia/Sydney')).toBe(600);
  });

  it('computes local dates and adds days across month ends', () => {
    expect(localDate(new Date('2026-01-01T02:00:00Z'), 'America/Los_Angeles')).toBe('2025-12-31');
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
  });
});
