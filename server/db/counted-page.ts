import {
  type AnyColumn,
  type asc,
  getTableColumns,
  getTableName,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { ADMIN_PAGE_SIZE } from '#common/constants.ts';
import { COUNT_CAP, SEARCH_COUNT_CAP } from '#common/contracts/pagination.ts';
import type { Remember } from '#server/http/remembered-values.ts';
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

/**
 * How many of a table's first rows in the sort's order a page is looked for in when its matches
 * are too many to count (mode 'window'): 20 for each row up to the page's end, at least 2,000.
 * The window holds a page when at least one row in 20 matches there (a common word: "noisy" is in
 * one review in 12). Reading it costs about 1 µs a row where each row is checked against a search
 * (2,000 orders: 2.3 ms), and the read stops as soon as the page is full; a window too sparse
 * costs that much before the page is read from the matches.
 */
export function windowRowsFor(offset: number, limit: number): number {
  return Math.max(2_000, 20 * (offset + limit));
}

/**
 * How a filtered page is read (countedPage decides, from the count):
 * - 'walk': the sort's index is walked until a page of matches turns up; the matches are many,
 *   and counted.
 * - 'matches': the matches alone are read through the filter's indexes, then sorted; they are few.
 * - 'window': only the first rows in the sort's order are looked at (windowRowsFor). The matches
 *   are many (more than the count's cap, or a search's), but they may all lie far along the sort
 *   (the orders of long-ago shoppers): a walk could cross the whole table. A full page from the
 *   window is the right page; a short one is read again as 'matches'.
 * - 'ids': the rows of the ids given, in the sort's order: a remembered search's page
 *   (countedPage's `remembered`), its rows read afresh.
 *
 * A 'matches' read also counts every match (`matches` on each row, `count(*) over ()`: it reads
 * them all to sort them anyway); an unfiltered 'walk' read's rows may carry the list's total
 * there (`totalInPage`), and the other reads' rows carry null.
 */
export type PageReadMode = 'walk' | 'matches' | 'window' | 'ids';

/** What each row of a page read carries besides its columns: the count of all matches, or null (PageReadMode). */
export type PageMatches = { matches: number | null };

type PageRead<Row> = {
  db: Db;
  /** The list's filters, or undefined for every row. */
  where: SQL | undefined;
  table: PgTable;
  offset: number;
  /** The page's size: a window's page is only taken when it is full. */
  limit: number;
  /**
   * Reads the page the way `mode` says (pageIdsOf reads a page's ids each way); `window` is how
   * many first rows a 'window' read looks at (windowRowsFor of this page), `ids` the rows an
   * 'ids' read reads.
   */
  page: (where: SQL | undefined, mode: PageReadMode, window: number, ids: string[]) => Promise<(Row & PageMatches)[]>;
  /**
   * Where a searched page's ids and count are kept under `key` (the list and its whole query), for
   * the reads of the same page after it: they read its rows afresh by id, so a row's details are
   * always current, and which rows match only until the next change event. A common search over
   * a million rows reads tens of thousands of matches (55,555 orders of "shopper 12": 60 ms),
   * where its page's rows by id take a fraction of a millisecond.
   */
  remembered?: { remember: Remember; key: string } | undefined;
  fewMatches?: number;
  /** Counts the matches another way, when the list knows a cheaper one than counting its table. */
  countMatches?: () => Promise<number>;
  /**
   * Whether an unfiltered page's rows carry the list's total in `matches` (the page statement
   * selects it: pageIdsPlaceholderOf's `total`): the page and its total then come in one round
   * trip, and `countMatches` is asked only when the page is empty.
   */
  totalInPage?: boolean;
  /** Whether the filters include a text search: its matches are counted up to SEARCH_COUNT_CAP past the offset. */
  searched?: boolean;
  /** Other filters' matches are counted up to this many past the offset (COUNT_CAP; tests pass a small one). */
  countCap?: number;
};

/**
 * A page of an admin list and the number of all its matches (counted in the list's table alone:
 * its joins only add columns; a filter's up to COUNT_CAP past the page's offset, a search's up to
 * SEARCH_COUNT_CAP past it, and `capped` when there are more: "Load more" never meets an end that
 * is not the list's). Unfiltered, both are read side by side. Filtered, the count comes
 * first and decides how the page is read: not at all past the end, and sorted from the matches
 * alone when they are few. Searched, the window comes first (searchedPage).
 */
export async function countedPage<Row extends { id: string }>({
  db,
  where,
  table,
  offset,
  limit,
  page,
  fewMatches = FEW_MATCHES,
  countMatches,
  remembered,
  totalInPage = false,
  searched = false,
  countCap = searched ? SEARCH_COUNT_CAP : COUNT_CAP,
}: PageRead<Row>): Promise<{ rows: Row[]; total: number; capped: boolean }> {
  const window = windowRowsFor(offset, limit);
  const read = async (mode: PageReadMode) => withoutMatches(await page(where, mode, window, []));
  const countAll = () => (countMatches ? countMatches() : db.$count(table));
  if (!where && totalInPage) {
    const walked = await page(where, 'walk', window, []);
    const total = walked[0]?.matches ?? (await countAll());
    return { rows: withoutMatches(walked), total, capped: false };
  }
  if (!where) {
    const [rows, total] = await Promise.all([read('walk'), countAll()]);
    return { rows, total, capped: false };
  }
  const cap = offset + countCap;
  const count = async () => {
    const counted = countMatches
      ? await countMatches()
      : await db.$count(
          db
            .select({ one: sql`1` })
            .from(table)
            .where(where)
            .limit(cap + 1)
            .as('matches'),
        );
    // More than the cap: the total says the cap (shown as "N+"), and the matches are many.
    const capped = !countMatches && counted > cap;
    return { total: capped ? cap : counted, capped };
  };
  if (searched && !countMatches) {
    const search = () => searchedPage(page(where, 'window', window, []), () => page(where, 'matches', window, []));
    if (!remembered) return search();
    // The reader that searches has its rows; the others read the remembered ids' rows.
    let searchedRows: Row[] | undefined;
    const found = await remembered.remember(remembered.key, async () => {
      const result = await search();
      searchedRows = result.rows;
      return { ids: result.rows.map((row) => row.id), total: result.total, capped: result.capped };
    });
    const rows =
      searchedRows ?? (found.ids.length === 0 ? [] : withoutMatches(await page(undefined, 'ids', window, found.ids)));
    return { rows, total: found.total, capped: found.capped };
  }
  const { total, capped } = await count();
  if (offset >= total) return { rows: [], total, capped };
  if (!capped) return { rows: await read(total <= fewMatches ? 'matches' : 'walk'), total, capped };
  const windowed = await read('window');
  return { rows: windowed.length === limit ? windowed : await read('matches'), total, capped };

  /**
   * A search's page: the window first. Full, it is the page, and the matches are counted up to the
   * cap (a common word: cheap, its matches met every few rows). Short, the matches are read and
   * sorted, and counted in the same read: the search's index is read once, where counting first
   * read it twice (a title search matching 1,408 of a million products: 31 ms to count, 42 ms to
   * read). Only past the last page is it counted apart.
   */
  async function searchedPage(
    windowRead: Promise<(Row & PageMatches)[]>,
    matchesRead: () => Promise<(Row & PageMatches)[]>,
  ) {
    const windowed = await windowRead;
    if (windowed.length === limit) return { rows: withoutMatches(windowed), ...(await count()) };
    const read = await matchesRead();
    const counted = read[0]?.matches;
    const matched = withoutMatches(read);
    if (counted != null) return { rows: matched, total: counted, capped: false };
    // Past the last page (or a read that did not count): counted apart.
    return { rows: matched, ...(await count()) };
  }
}

/** A page's rows without the count each carries. */
function withoutMatches<Row>(rows: (Row & PageMatches)[]): Row[] {
  return rows.map(({ matches: _, ...row }) => row as unknown as Row);
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
 *
 * Each id comes with `matches` (PageMatches): the count of every match with `countAll`, else null.
 *
 * With `window` (a number of rows), the ids are read from the table's first rows in `orderBy`'s
 * order (a subquery under the table's own name, so that the filter's columns name its columns):
 * countedPage's mode 'window'.
 */
export function pageIdsOf<Id extends PgColumn>(
  db: Db,
  id: Id,
  {
    where,
    orderBy,
    limit,
    offset,
    window = false,
    countAll = false,
    total,
  }: {
    where: SQL | undefined;
    orderBy: SQL[];
    /** A number is sent as a parameter; SQL (a literal) is written into the statement. */
    limit: number | Placeholder | SQL;
    offset: number | Placeholder;
    window?: number | Placeholder | false;
    /** Whether each row carries the count of every match (a 'matches' read: PageMatches). */
    countAll?: boolean;
    /** Else, an expression each row carries in `matches` instead of null (the list's total). */
    total?: SQL<number> | undefined;
  },
) {
  if (window === false) {
    return db
      .select({ id, matches: countAll ? matchesCount() : total ? totalOf(total) : noCount() })
      .from(id.table)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit as number | Placeholder)
      .offset(offset)
      .as('page_ids');
  }
  const firstRows = db
    .select()
    .from(id.table)
    .orderBy(...orderBy)
    .limit(window)
    .as(getTableName(id.table));
  const idKey = Object.entries(getTableColumns(id.table)).find(([, column]) => column === id)?.[0] ?? 'id';
  const windowId = (firstRows as unknown as Record<string, Id>)[idKey] as Id;
  // The same keys again: PostgreSQL keeps the window's order, so the read stops at a full page.
  return db
    .select({ id: windowId, matches: noCount() })
    .from(firstRows)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit as number | Placeholder)
    .offset(offset)
    .as('page_ids');
}

const matchesCount = () => sql<number | null>`count(*) over ()`.mapWith(Number).as('matches');
const noCount = () => sql<number | null>`NULL::bigint`.as('matches');
const totalOf = (total: SQL<number>) => sql<number | null>`${total}`.mapWith(Number).as('matches');

/** What every admin list's page statement is built for besides its own filters (statementPerShape's shape). */
export type PageStatementShape = {
  /** Whether a search's pattern is among the statement's values. */
  searched: boolean;
  mode: PageReadMode;
  /** The first page's size, written into the statement (pageIdsPlaceholderOf), or undefined. */
  firstPage: number | undefined;
};

/**
 * pageIdsOf for a page statement built once per shape (statement-shapes.ts): ordered by `keys` the
 * way `mode` reads, its limit, offset and window the placeholders `limit`, `offset` and `window`
 * (windowRowsFor). An 'ids' read takes the rows of the placeholder `ids` (an array), whatever
 * the filters.
 *
 * With `firstPage` (a page size), the statement reads the first page of that size, both written
 * into its text: give it only to a shape whose filters hold no placeholder. PostgreSQL then plans
 * the statement once per connection. With `LIMIT $1` it plans it again at every run (0.37 ms of
 * the products list's 1 ms of PostgreSQL at a million products): its one plan for any value
 * would assume a tenth of the table, and a million products then read as a hash join over every
 * row.
 */
export function pageIdsPlaceholderOf<Id extends PgColumn>(
  db: Db,
  id: Id,
  options: {
    where: SQL | undefined;
    keys: (AnyColumn | SQLWrapper)[];
    direction: typeof asc;
    mode: PageReadMode;
    firstPage?: number | undefined;
    /**
     * The list's total when the filters select every row (rowCountsSum): an unfiltered 'walk'
     * read's rows carry it in `matches` (countedPage's `totalInPage`).
     */
    total?: SQL<number> | undefined;
  },
) {
  const { where, keys, direction, mode, firstPage, total } = options;
  if (mode === 'ids') {
    return pageIdsOf(db, id, {
      where: sql`${id} = ANY(${sql.placeholder('ids')}::text[])`,
      orderBy: sortKeys(keys, direction),
      limit: sql.placeholder('limit'),
      offset: 0,
    });
  }
  return pageIdsOf(db, id, {
    total: where === undefined && mode === 'walk' ? total : undefined,
    where,
    orderBy: sortKeys(keys, direction, mode === 'matches'),
    limit: firstPage === undefined ? sql.placeholder('limit') : sql.raw(String(firstPage)),
    offset: firstPage === undefined ? sql.placeholder('offset') : 0,
    window: mode === 'window' && sql.placeholder('window'),
    countAll: mode === 'matches',
  });
}

/**
 * The page size a page statement is given as `firstPage` (pageIdsPlaceholderOf): the admin lists'
 * size on their first page, when the statement's filters hold no placeholder (no search, no free
 * value); otherwise undefined. One size only: a shape has at most one such statement.
 */
export function firstPageOf(offset: number, limit: number, noPlaceholders: boolean): number | undefined {
  return noPlaceholders && offset === 0 && limit === ADMIN_PAGE_SIZE ? limit : undefined;
}
