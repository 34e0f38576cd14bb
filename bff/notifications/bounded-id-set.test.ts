import { describe, expect, it } from 'vitest';
import { BoundedIdSet } from './bounded-id-set.ts';

describe('BoundedIdSet', () => {
  it('reports a repeated id as a duplicate', () => {
    const ids = new BoundedIdSet(3);
    expect(ids.add('a')).toBe(true);
    expect(ids.add('a')).toBe(false);
  });

  it('forgets the oldest id once over capacity, never growing past it', () => {
    const ids = new BoundedIdSet(2);
    ids.add('a');
    ids.add('b');
    ids.add('c');
    expect(ids.size).toBe(2);
    expect(ids.has('a')).toBe(false);
    expect(ids.has('c')).toBe(true);
  });
});
