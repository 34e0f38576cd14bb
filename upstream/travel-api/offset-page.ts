import type { OffsetPageMeta } from '#shared/upstream/pagination.ts';

/** The page envelope of an offset-paginated list: `nextOffset` is null at the end of the list. */
export function offsetPage<Item>(
  { items, totalCount }: { items: Item[]; totalCount: number },
  { limit, offset }: { limit: number; offset: number },
): { items: Item[]; meta: OffsetPageMeta } {
  const next = offset + items.length;
  return {
    items,
    meta: { totalCount, pageSize: limit, nextOffset: items.length > 0 && next < totalCount ? next : null },
  };
}
