import { PGlite } from '@electric-sql/pglite';
import { asc, gt, lt, type SQL } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './client.ts';
import { countedPage, sortKeys } from './counted-page.ts';

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

  const read = (where: SQL | undefined, offset: number, fewMatches: number, countCap?: number) => {
    statements.length = 0;
    return countedPage({
      db: db as unknown as Db,
      where,
      table: items,
      offset,
      fewMatches,
      ...(countCap === undefined ? {} : { countCap }),
      page: (filter, matchesFirst) =>
        db
          .select()
          .from(items)
          .where(filter)
          .orderBy(...sortKeys([items.rank, items.id], asc, matchesFirst))
          .limit(5)
          .offset(offset),
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

  it('counts the matches of a filter up to the cap: past it, the total is the cap and the sort index is walked', async () => {
    const where = lt(items.rank, 40);
    const capped = await read(where, 0, 1000, 30);
    expect(capped.total).toBe(30);
    expect(capped.capped).toBe(true);
    expect(statements[0]).toContain('limit');
    expect(statements.at(-1)).toContain('order by "items"."rank" asc, "items"."id" asc');
    expect(capped.rows).toEqual(await expected(where, 0));
    // Past the cap no page is read, though more rows match.
    expect(await read(where, 30, 1000, 30)).toEqual({ rows: [], total: 30, capped: true });
    // At or under the cap the count is exact.
    expect(await read(where, 0, 1000, 40)).toMatchObject({ total: 40, capped: false });
    expect((await read(undefined, 0, 1000, 30)).total).toBe(100);
  });
});
