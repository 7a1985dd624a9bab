import { inArray, sql } from 'drizzle-orm';
import { bigint, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * How many rows the back office's big lists have, in all ('orders') and by status
 * ('orders:pending'), kept by triggers as rows are written (migration 0024): an admin list's
 * total is a few rows' sum, not a count of a million orders or ten million reviews. Each scope
 * is spread over a few shards (a transaction adds to one, by its id) so that concurrent
 * checkouts seldom wait for each other's counter row.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    /** A table's name, or the name and a status ('reviews:approved'). */
    scope: text().notNull(),
    shard: smallint().notNull(),
    rows: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.shard] })],
);

/** The rows of these scopes, added up (scopes that never had a row count 0). */
export async function countRows(db: Db, scopes: string[]): Promise<number> {
  const [row] = await db
    .select({ rows: sql<number>`coalesce(sum(${rowCounts.rows}), 0)`.mapWith(Number) })
    .from(rowCounts)
    .where(inArray(rowCounts.scope, scopes));
  return row?.rows ?? 0;
}
