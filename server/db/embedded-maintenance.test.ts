import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, test } from 'vitest';
import { maintainEmbeddedDatabase, maintenanceFor, startEmbeddedMaintenance } from './embedded-maintenance.ts';

describe('maintenanceFor: PostgreSQL autovacuum thresholds', () => {
  test.each([
    [{ changed: 0, dead: 0, rows: 0 }, null],
    [{ changed: 50, dead: 0, rows: 0 }, null],
    [{ changed: 51, dead: 0, rows: -1 }, 'analyze'],
    [{ changed: 150, dead: 0, rows: 1000 }, null],
    [{ changed: 151, dead: 0, rows: 1000 }, 'analyze'],
    [{ changed: 0, dead: 251, rows: 1000 }, 'vacuum'],
    [{ changed: 10_000, dead: 251, rows: 1000 }, 'vacuum'],
  ])('%o → %s', (activity, expected) => {
    expect(maintenanceFor({ table: 't', ...activity })).toBe(expected);
  });
});

describe('maintainEmbeddedDatabase', () => {
  const pglite = new PGlite();
  afterAll(() => pglite.close());
  const plan = async (sql: string) =>
    (await pglite.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((row) => row['QUERY PLAN']).join('\n');

  test('a table grown since it was created gets statistics, and its reads then use the index', async () => {
    await pglite.exec(`
      CREATE TABLE items (id int PRIMARY KEY, owner int NOT NULL, rank int NOT NULL);
      CREATE INDEX items_owner_rank ON items (owner, rank);
      ANALYZE items;
      INSERT INTO items SELECT n, n % 2, n FROM generate_series(1, 20000) AS n;`);
    const query = 'SELECT * FROM items WHERE owner = 1 ORDER BY rank DESC LIMIT 10 OFFSET 490';
    // Statistics of the empty table: the planner expects a handful of rows and sorts them all.
    expect(await plan(query)).toMatch(/Sort/);

    expect(await maintainEmbeddedDatabase(pglite)).toContainEqual({ table: 'items', action: 'analyze' });
    expect(await plan(query)).toMatch(/Index Scan Backward using items_owner_rank/);
    // Nothing changed since: nothing to do.
    expect(await maintainEmbeddedDatabase(pglite)).toEqual([]);
  });

  test('dead rows are vacuumed', async () => {
    await pglite.exec('UPDATE items SET rank = rank + 1 WHERE id <= 10000');
    expect(await maintainEmbeddedDatabase(pglite)).toContainEqual({ table: 'items', action: 'vacuum' });
    const [row] = (await pglite.query<{ dead: number }>(`SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables`))
      .rows;
    expect(row?.dead).toBe(0);
  });

  test('the rounds start at once, report failures, and stop', async () => {
    const errors: unknown[] = [];
    await pglite.exec('INSERT INTO items SELECT n, 0, n FROM generate_series(20001, 30000) AS n');
    const maintenance = startEmbeddedMaintenance(pglite, { intervalMs: 60_000, onError: (e) => errors.push(e) });
    await maintenance.stop();
    expect(errors).toEqual([]);
    expect(await maintainEmbeddedDatabase(pglite)).toEqual([]);
  });
});
