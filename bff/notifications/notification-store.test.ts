import { describe, expect, it } from 'vitest';
import { compareEntries } from './notification-store.ts';

describe('compareEntries', () => {
  it('orders log entries by time, then by sequence, as numbers', () => {
    const entries = ['1795839818583-10', '0-9', '1795839818583-2', '0-10', '999-0', '1795839818584-0'];
    expect([...entries].sort(compareEntries)).toEqual([
      '0-9',
      '0-10',
      '999-0',
      '1795839818583-2',
      '1795839818583-10',
      '1795839818584-0',
    ]);
  });

  it('finds an entry equal to itself, and reads a missing sequence as 0', () => {
    expect(compareEntries('1795839818583-4', '1795839818583-4')).toBe(0);
    expect(compareEntries('12', '12-0')).toBe(0);
    expect(compareEntries('12-', '12-0')).toBe(0);
    expect(Math.sign(compareEntries('12-1', '12'))).toBe(1);
    expect(Math.sign(compareEntries('11-5', '12'))).toBe(-1);
  });
});
