import { count, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * Up to this many matches, a filtered page reads its matches first (through the filter's own
 * indexes) and sorts only them: a rare search, or filters that select nothing, would otherwise
 * walk the whole sort index (50-475 ms at 100,000 reviews on PostgreSQL). Above it, walking the
 * sort's index meets a match every (rows / matches) entries: at 100,000 rows, page 1 reads about
 * a thousand; reading thousands of matches by id first costs more (5,000 orders: 4 ms → 50 ms).
 */
export const FEW_MATCHES = 1000;

type PageRead<Row> = {
  db: Db;
  /** The list's filters, or undefined for every row. */
  where: SQL | undefined;
  /** The list's table and its primary key. */
  table: PgTable;
  id: AnyPgColumn;
  offset: number;
  /** Reads the page with these filters (the list's own, or the same rows named by id). */
  page: (where: SQL | undefined) => Promise<Row[]>;
  fewMatches?: number;
};

/**
 * A page of an admin list and the number of all its matches (counted in the list's table alone:
 * its joins only add columns). Unfiltered, both are read side by
 * side. Filtered, the count comes first and decides how the page is read: no read when the page
 * is past the end, and by id when the matches are few. `id = ANY(ARRAY(subquery))` runs the
 * subquery once, on its own, so the planner cannot turn it back into a walk of the sort's index.
 */
export async function countedPage<Row>({
  db,
  where,
  table,
  id,
  offset,
  page,
  fewMatches = FEW_MATCHES,
}: PageRead<Row>): Promise<{ rows: Row[]; total: number }> {
  const countOf = async (filter: SQL | undefined) =>
    (await db.select({ value: count() }).from(table).where(filter))[0]?.value ?? 0;
  if (!where) {
    const [rows, total] = await Promise.all([page(undefined), countOf(undefined)]);
    return { rows, total };
  }
  const total = await countOf(where);
  if (offset >= total) return { rows: [], total };
  if (total > fewMatches) return { rows: await page(where), total };
  return { rows: await page(sql`${id} = ANY(ARRAY(SELECT ${id} FROM ${table} WHERE ${where}))`), total };
}
