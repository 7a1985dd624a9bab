import { type AnyColumn, type asc, type Placeholder, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { COUNT_CAP } from '#common/contracts/pagination.ts';
import type { Db } from './client.ts';

/**
 * Up to this many matches, a filtered page is sorted from its matches alone, read through the
 * filter's own indexes (about 1 µs a match on PostgreSQL: 11,000 in 11 ms, 20,000 in 17-20 ms).
 * Otherwise PostgreSQL may walk the sort's index until a page of matches turns up, which reads the
 * whole index when the matches are rare or lie at its far end (a rare search, filters that select
 * nothing, a search whose matches all signed up long ago: 50-475 ms at 100,000 rows). Above it
 * the matches are more than a seventh of 100,000 rows, and walking the sort's index meets one
 * every few entries (a fifth of the reviews by rating: 0.1 ms walking, 17 ms sorting).
 */
export const FEW_MATCHES = 15_000;

type PageRead<Row> = {
  db: Db;
  /** The list's filters, or undefined for every row. */
  where: SQL | undefined;
  table: PgTable;
  offset: number;
  /** Reads the page; `matchesFirst`: its order must come from sortKeys(…, true). */
  page: (where: SQL | undefined, matchesFirst: boolean) => Promise<Row[]>;
  fewMatches?: number;
  /** Counts the matches another way, when the list knows a cheaper one than counting its table. */
  countMatches?: () => Promise<number>;
  /** Filtered matches are counted up to this many (COUNT_CAP; tests pass a small one). */
  countCap?: number;
};

/**
 * A page of an admin list and the number of all its matches (counted in the list's table alone:
 * its joins only add columns; a filter's up to COUNT_CAP, and `capped` when
 * there are more). Unfiltered, both are read side by side. Filtered, the count comes
 * first and decides how the page is read: not at all past the end, and sorted from the matches
 * alone when they are few.
 */
export async function countedPage<Row>({
  db,
  where,
  table,
  offset,
  page,
  fewMatches = FEW_MATCHES,
  countMatches,
  countCap = COUNT_CAP,
}: PageRead<Row>): Promise<{ rows: Row[]; total: number; capped: boolean }> {
  if (!where) {
    const [rows, total] = await Promise.all([page(undefined, false), countMatches ? countMatches() : db.$count(table)]);
    return { rows, total, capped: false };
  }
  const counted = countMatches
    ? await countMatches()
    : await db.$count(
        db
          .select({ one: sql`1` })
          .from(table)
          .where(where)
          .limit(countCap + 1)
          .as('matches'),
      );
  // More than the cap: the total says the cap (shown as "N+"), and the matches are many.
  const capped = !countMatches && counted > countCap;
  const total = capped ? countCap : counted;
  if (offset >= total) return { rows: [], total, capped };
  return { rows: await page(where, !capped && total <= fewMatches), total, capped };
}

/**
 * A list's ORDER BY, its keys all one way. With `matchesFirst`, the first key is written
 * `COALESCE(key, key)`: the same value, which no index holds, so PostgreSQL cannot walk a sort
 * index and reads the matches through the filter's indexes, then sorts them.
 */
export function sortKeys(keys: (AnyColumn | SQLWrapper)[], direction: typeof asc, matchesFirst = false): SQL[] {
  return keys.map((key, index) => direction(index === 0 && matchesFirst ? sql`COALESCE(${key}, ${key})` : key));
}

/**
 * The ids of one page of a table's rows (filtered, ordered, at an offset), as a subquery for the
 * page's details to join: whatever a row's details cost (joins, JSON subqueries) is then paid for
 * the page's rows alone, not also for every row the offset skips, which reads those rows too
 * (page 500 of the admin reviews joined 4,990 skipped reviews' products and authors: 72 ms at
 * 10,000,000 reviews). The details' select orders by the same keys again.
 */
export function pageIdsOf<Id extends PgColumn>(
  db: Db,
  id: Id,
  {
    where,
    orderBy,
    limit,
    offset,
  }: { where: SQL | undefined; orderBy: SQL[]; limit: number | Placeholder; offset: number | Placeholder },
) {
  return db
    .select({ id })
    .from(id.table)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset)
    .as('page_ids');
}

/**
 * pageIdsOf for a page statement built once per shape (statement-shapes.ts): ordered by `keys`
 * (read from the matches alone when `matchesFirst`), its limit and offset the placeholders
 * `limit` and `offset`.
 */
export function pageIdsPlaceholderOf<Id extends PgColumn>(
  db: Db,
  id: Id,
  {
    where,
    keys,
    direction,
    matchesFirst,
  }: { where: SQL | undefined; keys: (AnyColumn | SQLWrapper)[]; direction: typeof asc; matchesFirst: boolean },
) {
  return pageIdsOf(db, id, {
    where,
    orderBy: sortKeys(keys, direction, matchesFirst),
    limit: sql.placeholder('limit'),
    offset: sql.placeholder('offset'),
  });
}
