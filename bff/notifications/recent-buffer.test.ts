import { describe, expect, it } from 'vitest';
import { RecentBuffer } from './recent-buffer.ts';

const item = (id: string) => ({ id });

describe('RecentBuffer', () => {
  it('returns what came after a held id, in order', () => {
    const buffer = new RecentBuffer<{ id: string }>(5);
    ['a', 'b', 'c'].forEach((id) => buffer.push(item(id)));
    expect(buffer.after('a')).toEqual({ found: true, items: [item('b'), item('c')] });
    expect(buffer.after('c')).toEqual({ found: true, items: [] });
  });

  it('cannot prove continuity for an id it no longer holds', () => {
    const buffer = new RecentBuffer<{ id: string }>(2);
    ['a', 'b', 'c'].forEach((id) => buffer.push(item(id)));
    expect(buffer.after('a')).toEqual({ found: false });
    expect(buffer.after('unknown')).toEqual({ found: false });
  });
});
