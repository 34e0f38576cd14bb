import { describe, expect, it } from 'vitest';
import { BookingFiltersSchema, BookingsPageQuerySchema } from './bookings.ts';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pagination.ts';

describe('bookings query', () => {
  it('defaults limit and offset and splits comma-separated filters', () => {
    expect(BookingsPageQuerySchema.parse({ status: 'confirmed,pending', vertical: 'stay' })).toEqual({
      limit: DEFAULT_PAGE_LIMIT,
      offset: 0,
      status: ['confirmed', 'pending'],
      vertical: ['stay'],
    });
  });

  it('bounds limit and offset and rejects unknown values and inverted dates', () => {
    expect(BookingsPageQuerySchema.safeParse({ limit: String(MAX_PAGE_LIMIT + 1) }).success).toBe(false);
    expect(BookingsPageQuerySchema.safeParse({ offset: '-1' }).success).toBe(false);
    expect(BookingFiltersSchema.safeParse({ status: 'lost' }).success).toBe(false);
    expect(
      BookingFiltersSchema.safeParse({ from: '2026-02-01', to: '2026-01-01' }).error?.issues[0]?.path,
    ).toEqual(['to']);
    expect(BookingFiltersSchema.parse({ from: '2026-01-01', to: '2026-01-01' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-01',
    });
  });
});
