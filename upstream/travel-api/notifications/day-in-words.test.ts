import { describe, expect, it } from 'vitest';
import { dayInWords } from './day-in-words.ts';

describe('dayInWords', () => {
  it('writes the local day of a date or a local time, whatever its offset', () => {
    expect(dayInWords('2026-12-01')).toBe('Tue 1 Dec');
    expect(dayInWords('2026-12-01T23:30:00-08:00')).toBe('Tue 1 Dec');
    expect(dayInWords('2027-01-01T00:05:00+14:00')).toBe('Fri 1 Jan');
  });
});
