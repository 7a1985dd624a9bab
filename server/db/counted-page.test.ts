import { PGlite } from '@electric-sql/pglite';
import { asc, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_COUNT_CAP } from '#common/contracts/pagination.ts';
import { createRememberedValues } from '#server/http/remembered-values.ts';
import type { Db } from './client.ts';
import { countedPage, FEW_MATCHES, type PageReadMode, pageIdsOf, sortKeys, windowRowsFor } from './counted-page.ts';

const items = pgTable('items', { id: text().primaryKey(), rank: integer().notNull() });

describe('countedPage', () => {
  const client = new PGlite();
  const statements: string[] = [];
  const db = drizzle({ client, logger: { logQuery: (query) => statements.push(query) } });

  beforeAll(async () => {
    await client.exec('CREATE TABLE items (id text PRIMARY KEY, rank integer NOT NULL)');
    await client.exec(
      `INSERT INTO items SELECT 'item-' || lpad(n::text, 3, '0'), (n * 37) % 100 FROM generate_series(1, 100) AS n`,
    );
  });
  afterAll(() => client.close());

  /** A page of 5 as the admin lists read one: its ids the way `mode` says, then its rows. */
  const pageOf = (table: typeof items, filter: SQL | undefined, mode: PageReadMode, offset: number, window: number) => {
    const orderBy = sortKeys([table.rank, table.id], asc, mode === 'matches');
    const ids = pageIdsOf(db as unknown as Db, table.id, {
      where: filter,
      orderBy,
      limit: 5,
      offset,
      window: mode === 'window' && window,
      countAll: mode === 'matches',
    });
    return db
      .select({ id: table.id, rank: table.rank, matches: ids.matches })
      .from(table)
      .innerJoin(ids, eq(ids.id, table.id))
      .orderBy(asc(table.rank), asc(table.id));
  };

  /** A page of 5 of the items; `window` cuts the window of first rows (else windowRowsFor's). */
  const read = (
    where: SQL | undefined,
    offset: number,
    fewMatches: number,
    countCap?: number,
    { searched = false, window }: { searched?: boolean; window?: number } = {},
  ) => {
    statements.length = 0;
    return countedPage({
      db: db as unknown as Db,
      where,
      table: items,
      offset,
      fewMatches,
      ...(countCap === undefined ? {} : { countCap }),
      limit: 5,
      searched,
      page: (filter, mode, rows) => pageOf(items, filter, mode, offset, window ?? rows),
    });
  };
  const expected = (where: SQL | undefined, offset: number) =>
    db.select().from(items).where(where).orderBy(asc(items.rank), asc(items.id)).limit(5).offset(offset);

  it('reads the same page whether the matches are few (sorted alone) or many (the sort index walked)', async () => {
    for (const offset of [0, 5, 30]) {
      const where = lt(items.rank, 40);
      const few = await read(where, offset, 1000);
      expect(statements.at(-1)).toContain('order by COALESCE("items"."rank", "items"."rank") asc, "items"."id" asc');
      const many = await read(where, offset, 10);
      expect(statements.at(-1)).toContain('order by "items"."rank" asc, "items"."id" asc');
      expect(few).toEqual(many);
      expect(few.rows).toEqual(await expected(where, offset));
      expect(few.total).toBe(40);
    }
  });

  it('does not read a page past the end, or for a filter that matches nothing', async () => {
    expect(await read(gt(items.rank, 1000), 0, 1000)).toEqual({ rows: [], total: 0, capped: false });
    expect(statements).toHaveLength(1);
    expect(await read(lt(items.rank, 10), 10, 1000)).toEqual({ rows: [], total: 10, capped: false });
    expect(statements).toHaveLength(1);
  });

  it('unfiltered, reads the page and the count side by side', async () => {
    const all = await read(undefined, 95, 1000);
    expect(all.total).toBe(100);
    expect(all.rows).toEqual(await expected(undefined, 95));
  });

  it('counts the matches of a filter up to the cap: past it, the total is the cap and the page is looked for in a window of the first rows', async () => {
    const where = lt(items.rank, 40);
    const capped = await read(where, 0, 1000, 30);
    expect(capped.total).toBe(30);
    expect(capped.capped).toBe(true);
    expect(statements[0]).toContain('limit');
    expect(statements).toHaveLength(2);
    expect(statements.at(-1)).toContain(
      'from (select "id", "rank" from "items" order by "items"."rank" asc, "items"."id" asc limit',
    );
    expect(capped.rows).toEqual(await expected(where, 0));
    // The cap counts from the page's offset: a later page is read, and counted past itself.
    expect(await read(where, 30, 1000, 30)).toEqual({ rows: await expected(where, 30), total: 40, capped: false });
    expect(await read(where, 5, 1000, 20)).toMatchObject({ rows: await expected(where, 5), total: 25, capped: true });
    // At or under the cap the count is exact.
    expect(await read(where, 0, 1000, 40)).toMatchObject({ total: 40, capped: false });
    expect((await read(undefined, 0, 1000, 30)).total).toBe(100);
  });

  it('reads the page again from the matches when the window of first rows holds less than a page of them', async () => {
    await client.exec(
      `CREATE TABLE far AS SELECT 'far-' || lpad(n::text, 6, '0') AS id, n AS rank FROM generate_series(1, ${windowRowsFor(5, 5) + 100}) AS n`,
    );
    const far = pgTable('far', { id: text().primaryKey(), rank: integer().notNull() });
    // The matches all lie past the window, and are more than the cap.
    const where = gt(far.rank, windowRowsFor(5, 5) + 40);
    statements.length = 0;
    const read = await countedPage({
      db: db as unknown as Db,
      where,
      table: far,
      offset: 5,
      limit: 5,
      countCap: 20,
      page: (filter, mode, window) => pageOf(far as unknown as typeof items, filter, mode, 5, window),
    });
    expect(read).toMatchObject({ total: 25, capped: true });
    expect(read.rows.map((row) => row.rank)).toEqual([46, 47, 48, 49, 50].map((n) => windowRowsFor(5, 5) + n));
    // The count, the window (short), then the matches sorted.
    expect(statements).toHaveLength(3);
    expect(statements.at(-1)).toContain('COALESCE');
  });

  describe('a search: the window of first rows first', () => {
    const search = (where: SQL, offset: number, countCap: number, window?: number) =>
      read(where, offset, FEW_MATCHES, countCap, { searched: true, ...(window === undefined ? {} : { window }) });

    it('takes a full page from the window, then counts up to the cap', async () => {
      const where = lt(items.rank, 40);
      const rows = await expected(where, 5);
      expect(await search(where, 5, 20)).toEqual({ rows, total: 25, capped: true });
      expect(statements).toHaveLength(2);
      expect(statements[0]).toContain('from (select');
      expect(statements[1]).toContain('count(*)');
    });

    it('reads a short window again from the matches, which count themselves: exactly, past the cap too', async () => {
      // The window of first rows is cut to 3 rows; the page needs 10.
      const where = lt(items.rank, 40);
      const read = await search(where, 5, 20, 3);
      expect(statements).toHaveLength(2);
      expect(read).toEqual({ rows: await expected(where, 5), total: 40, capped: false });
      expect(statements[1]).toContain('count(*) over ()');
      expect(read.rows[0]).not.toHaveProperty('matches');
    });

    it('counts after the matches only past the last page', async () => {
      expect(await search(lt(items.rank, 10), 10, 20)).toEqual({ rows: [], total: 10, capped: false });
      expect(statements).toHaveLength(3);
    });
  });

  it("remembers a search's page: the readers after the one that searched read its ids' rows, until the store forgets it", async () => {
    const store = createRememberedValues({ ttlMs: 60_000, maxValues: 10 });
    const modes: PageReadMode[] = [];
    const where = lt(items.rank, 40);
    const searchedPage = () =>
      countedPage({
        db: db as unknown as Db,
        where,
        table: items,
        offset: 5,
        limit: 5,
        searched: true,
        remembered: { remember: store.remember, key: 'items:rank<40' },
        page: async (filter, mode, window, ids) => {
          modes.push(mode);
          if (mode !== 'ids') return pageOf(items, filter, mode, 5, window);
          return db
            .select({ id: items.id, rank: sql<number>`${items.rank} + 1000`, matches: sql<number | null>`NULL` })
            .from(items)
            .where(inArray(items.id, ids))
            .orderBy(asc(items.rank), asc(items.id));
        },
      });
    const [first, ...others] = await Promise.all([searchedPage(), searchedPage(), searchedPage()]);
    expect(first).toEqual({ rows: await expected(where, 5), total: 40, capped: false });
    expect(modes).toEqual(['window', 'ids', 'ids']);
    // The others' rows are read afresh (here: their rank moved by 1000), the same ids in the same order.
    const fresh = first?.rows.map((row) => ({ ...row, rank: row.rank + 1000 }));
    for (const other of others) expect(other).toEqual({ rows: fresh, total: 40, capped: false });
    store.invalidate();
    modes.length = 0;
    expect(await searchedPage()).toEqual(first);
    expect(modes).toEqual(['window']);
  });

  it('counts a search up to SEARCH_COUNT_CAP, other filters up to COUNT_CAP', async () => {
    await client.exec(`CREATE TABLE many AS SELECT n AS id FROM generate_series(1, ${SEARCH_COUNT_CAP + 500}) AS n`);
    const many = pgTable('many', { id: integer().primaryKey() });
    const count = (searched: boolean) =>
      countedPage({
        db: db as unknown as Db,
        where: gt(many.id, 0),
        table: many,
        offset: 0,
        limit: 5,
        searched,
        page: async () => [],
      });
    expect(await count(true)).toMatchObject({ total: SEARCH_COUNT_CAP, capped: true });
    expect(await count(false)).toMatchObject({ total: SEARCH_COUNT_CAP + 500, capped: false });
  });
});
