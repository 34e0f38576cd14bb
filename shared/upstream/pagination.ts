import { z } from 'zod';

/** Offset pagination of GET /v1/bookings/page: `limit` defaults to 20 and may not exceed 100. */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

export const OffsetPageMetaSchema = z.looseObject({
  totalCount: z.number().int().min(0),
  pageSize: z.number().int().min(0),
  nextOffset: z.number().int().min(0).nullable(),
});
export type OffsetPageMeta = z.infer<typeof OffsetPageMetaSchema>;

export const CursorPageMetaSchema = z.looseObject({
  totalCount: z.number().int().min(0).optional(),
  pageSize: z.number().int().min(0),
  nextCursor: z.string().nullable(),
});
export type CursorPageMeta = z.infer<typeof CursorPageMetaSchema>;

/** The spec's page envelope: `items` and `meta` with `nextOffset` (null at the end of the list). */
export function offsetPageSchema<Item extends z.ZodType>(item: Item) {
  return z.looseObject({ items: z.array(item), meta: OffsetPageMetaSchema });
}

/** The cursor form of the page envelope: the same meta object with `nextCursor` instead of an offset. */
export function cursorPageSchema<Item extends z.ZodType>(item: Item) {
  return z.looseObject({ items: z.array(item), meta: CursorPageMetaSchema });
}

/** Query parameters of offset pagination, from text as they arrive in a query string. */
export const OffsetPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type OffsetPageQuery = z.infer<typeof OffsetPageQuerySchema>;
