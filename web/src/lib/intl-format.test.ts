import { describe, expect, it } from 'vitest';
import { formattersFor, localDateOf, todayIsoDate, zoneCity, type TimeChange } from './intl-format.ts';

describe('zoneCity', () => {
  it('names the place a zone is named after, in words', () => {
    expect(zoneCity('Europe/Lisbon')).toBe('Lisbon');
    expect(zoneCity('America/New_York')).toBe('New York');
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneCity('UTC')).toBe('UTC');
  });
});

describe('timeChange', () => {
  // A flight out of Denver at 12:25 on Thursday, now leaving at 7:45 the next morning.
  const scheduled = '2026-11-26T12:25:00-07:00';
  const nextMorning = '2026-11-27T07:45:00-07:00';
  const sameAfternoon = '2026-11-26T16:00:00-07:00';
  const zone = 'America/Denver';
  /** Intl writes a narrow no-break space before AM and PM. */
  const plain = (text: string) => text.replace(/\s/g, ' ');
  const inPlainSpaces = ({ scheduled: from, estimated: to, dayChanged }: TimeChange) => ({
    scheduled: plain(from),
    estimated: plain(to),
    dayChanged,
  });

  it('names both days when a delay moves the time into the next day, on a 12-hour clock in English', () => {
    expect(inPlainSpaces(formattersFor('en-US').timeChange(scheduled, nextMorning, zone))).toEqual({
      scheduled: 'Thu, Nov 26, 12:25 PM',
      estimated: 'Fri, Nov 27, 7:45 AM',
      dayChanged: true,
    });
  });

  it('on a 24-hour clock in Spanish', () => {
    expect(inPlainSpaces(formattersFor('es-ES').timeChange(scheduled, nextMorning, zone))).toEqual({
      scheduled: 'jue, 26 nov, 12:25',
      estimated: 'vie, 27 nov, 7:45',
      dayChanged: true,
    });
  });

  it('gives the times alone when both are on the same day', () => {
    expect(inPlainSpaces(formattersFor('en-US').timeChange(scheduled, sameAfternoon, zone))).toEqual({
      scheduled: '12:25 PM',
      estimated: '4:00 PM',
      dayChanged: false,
    });
    expect(inPlainSpaces(formattersFor('es-ES').timeChange(scheduled, sameAfternoon, zone))).toEqual({
      scheduled: '12:25',
      estimated: '16:00',
      dayChanged: false,
    });
  });

  it('reads the days in the place’s own zone, not the browser’s', () => {
    // 23:30 in Denver is already the next day in UTC: still one day where the flight leaves.
    const late = '2026-11-26T23:30:00-07:00';
    expect(formattersFor('en-US').timeChange(scheduled, late, zone).dayChanged).toBe(false);
    expect(formattersFor('en-US').timeChange(scheduled, late, 'UTC').dayChanged).toBe(true);
  });
});

describe('localDateOf', () => {
  /** The browser's own zone by name, read the Intl way. */
  const ownZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  const byIntl = (instant: string) => localDateOf(instant, ownZone);

  it('reads the browser’s own date without Intl as Intl reads it, either side of local midnight', () => {
    const midnight = new Date(2026, 11, 31, 0, 0, 0).getTime();
    for (const offsetMinutes of [-61, -1, 0, 1, 59, 12 * 60]) {
      const instant = new Date(midnight + offsetMinutes * 60_000).toISOString();
      expect(localDateOf(instant), instant).toBe(byIntl(instant));
    }
    expect(localDateOf('2027-03-01T10:00:00+01:00')).toBe(byIntl('2027-03-01T10:00:00+01:00'));
    expect(todayIsoDate(new Date(midnight - 60_000))).toBe('2026-12-30');
    expect(todayIsoDate(new Date(midnight))).toBe('2026-12-31');
  });

  it('reads a date in a named zone, and refuses an instant that is none', () => {
    expect(localDateOf('2026-12-31T23:30:00Z', 'Asia/Tokyo')).toBe('2027-01-01');
    expect(localDateOf('2026-12-31T23:30:00Z', 'America/New_York')).toBe('2026-12-31');
    expect(() => localDateOf('not a time')).toThrow(RangeError);
  });
});

describe('durations, counts and relative times', () => {
  /** Intl may write a no-break space between a number and its unit. */
  const plain = (text: string) => text.replace(/\s/g, ' ');

  it('writes them in the locale, each formatter made when first used and kept', () => {
    const english = formattersFor('en-GB');
    expect(plain(english.duration(155))).toBe('2h 35m');
    expect(plain(english.duration(45))).toBe('45m');
    expect(plain(english.duration(120))).toBe('2h');
    expect(english.durationInWords(155)).toBe('2 hours and 35 minutes');
    expect(english.durationInWords(0)).toBe('0 minutes');
    expect(english.count(12345)).toBe('12,345');
    const now = new Date('2026-11-27T12:00:00Z');
    expect(english.relative('2026-11-27T11:55:00Z', now)).toBe('5 minutes ago');
    expect(english.relative('2026-11-26T12:00:00Z', now)).toBe('yesterday');
    expect(english.money(12.5, 'XYZ')).toMatch(/12\.5/);
    expect(plain(english.duration(155))).toBe('2h 35m');

    const spanish = formattersFor('es-ES');
    expect(spanish.durationInWords(155)).toBe('2 horas y 35 minutos');
    expect(spanish.count(12345)).toBe('12.345');
    expect(spanish.relative('2026-11-26T12:00:00Z', now)).toBe('ayer');
  });
});
