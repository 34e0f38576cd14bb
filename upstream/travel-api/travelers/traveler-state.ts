import type { DatabaseSync } from 'node:sqlite';

/**
 * Tables whose rows belong to a traveler yet change nothing another reader of the traveler sees: search
 * sessions and guest links expire by themselves.
 */
const PASSING_TABLES = new Set(['stay_searches', 'stay_search_solutions', 'guest_sessions']);
/** Columns that a read alone changes (when the traveler was last seen). */
const READ_COLUMNS = new Set(['last_seen_at']);

/** Everything the service holds of one traveler, table by table, each table's rows in insertion order. */
export type TravelerTables = Record<string, Record<string, unknown>[]>;

/**
 * The rows of every table that belongs to a traveler (the `travelers` row by `id`, every other table by a
 * `traveler_id` column), found from the schema so that a table added later is part of it by itself.
 * Undefined when the service has never seen the traveler.
 */
export function travelerTables(db: DatabaseSync, travelerId: string): TravelerTables | undefined {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  const result: TravelerTables = {};
  for (const { name } of tables) {
    if (PASSING_TABLES.has(name)) continue;
    const columns = (db.prepare(`PRAGMA table_info(${quoted(name)})`).all() as { name: string }[]).map(
      (column) => column.name,
    );
    const key = name === 'travelers' ? 'id' : columns.includes('traveler_id') ? 'traveler_id' : undefined;
    if (key === undefined) continue;
    const kept = columns.filter((column) => !READ_COLUMNS.has(column));
    const rows = db
      .prepare(
        `SELECT ${kept.map(quoted).join(', ')} FROM ${quoted(name)} WHERE ${quoted(key)} = ? ORDER BY rowid`,
      )
      .all(travelerId) as Record<string, unknown>[];
    result[name] = rows.map((row) => ({ ...row }));
  }
  return result.travelers?.length ? result : undefined;
}

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
