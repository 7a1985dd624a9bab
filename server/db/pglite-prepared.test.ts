import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withPreparedStatements } from './pglite-prepared.ts';

describe('PGlite with prepared statements', () => {
  let pglite: PGlite;
  let client: PGlite;

  beforeEach(async () => {
    pglite = await PGlite.create();
    await pglite.exec(`
      CREATE TABLE things (
        id serial PRIMARY KEY, name text UNIQUE, data jsonb, tags text[], price numeric(10, 2),
        big bigint, ok boolean, at timestamptz
      );
      INSERT INTO things (name, data, tags, price, big, ok, at) VALUES
        ('lamp', '{"a": [1, 2]}', '{calm,"desk lamp"}', 12.5, 9007199254740993, true, '2026-01-02T03:04:05Z'),
        ('bowl', NULL, '{}', NULL, NULL, NULL, NULL);
    `);
    client = withPreparedStatements(pglite, { capacity: 3 });
  });

  afterEach(async () => {
    await pglite.close();
  });

  const preparedCount = async () =>
    (await pglite.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]?.n;

  it('answers exactly as PGlite does, in both row modes and with parsers', async () => {
    const sql = 'SELECT * FROM things WHERE id = ANY($1) OR name = $2 ORDER BY id';
    const params = [[1, 2], 'none'];
    expect(await client.query(sql, params)).toEqual(await pglite.query(sql, params));
    const arrays = { rowMode: 'array' as const, parsers: { 1184: (value: string) => `raw ${value}` } };
    expect(await client.query(sql, params, arrays)).toEqual(await pglite.query(sql, params, arrays));
    const written = await client.query('UPDATE things SET ok = $1 WHERE name = $2 RETURNING id', [false, 'lamp']);
    expect(written).toMatchObject({ affectedRows: 1, rows: [{ id: 1 }] });
  });

  it('serialises parameters by their types: JSON, arrays, dates, null', async () => {
    const at = new Date('2026-11-25T10:00:00Z');
    const { rows } = await client.query<{ data: unknown; tags: string[]; at: Date; price: string | null }>(
      'INSERT INTO things (name, data, tags, at, price) VALUES ($1, $2, $3, $4, $5) RETURNING data, tags, at, price',
      ['vase', { calm: ['yes', 1] }, ['a', 'b "c"'], at, null],
    );
    expect(rows[0]).toEqual({ data: { calm: ['yes', 1] }, tags: ['a', 'b "c"'], at, price: null });
  });

  it('prepares a statement once and runs it again without preparing', async () => {
    const sql = 'SELECT name FROM things WHERE id = $1';
    for (const id of [1, 2, 1, 2]) await client.query(sql, [id]);
    expect(await preparedCount()).toBe(1);
    expect((await client.query(sql, [2])).rows).toEqual([{ name: 'bowl' }]);
  });

  it('keeps at most its capacity of statements, closing the least recently used', async () => {
    for (let n = 1; n <= 6; n++) await client.query(`SELECT ${n} AS n`);
    // The one evicted last is closed with the next statement prepared.
    expect(await preparedCount()).toBeLessThanOrEqual(4);
    expect((await client.query('SELECT 6 AS n')).rows).toEqual([{ n: 6 }]);
  });

  it('passes errors through with their code and constraint, and goes on working', async () => {
    const insert = 'INSERT INTO things (name) VALUES ($1)';
    await expect(client.query(insert, ['lamp'])).rejects.toMatchObject({
      code: '23505',
      constraint: 'things_name_key',
      query: insert,
    });
    await expect(client.query('SELEC nonsense')).rejects.toMatchObject({ code: '42601' });
    await client.query(insert, ['chair']);
    expect((await client.query('SELECT count(*)::int AS n FROM things')).rows).toEqual([{ n: 3 }]);
  });

  it('runs inside transactions: committed, rolled back on an error, and never mixed with outside queries', async () => {
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO things (name) VALUES ($1)', ['stool']);
    });
    await expect(
      client.transaction(async (tx) => {
        await tx.query('INSERT INTO things (name) VALUES ($1)', ['rug']);
        await tx.query('INSERT INTO things (name) VALUES ($1)', ['lamp']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const names = async () =>
      (await client.query<{ name: string }>('SELECT name FROM things ORDER BY id')).rows.map((row) => row.name);
    expect(await names()).toEqual(['lamp', 'bowl', 'stool']);

    // A query from outside waits for the open transaction instead of running inside it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const open = client.transaction(async (tx) => {
      await tx.query('INSERT INTO things (name) VALUES ($1)', ['mat']);
      await held;
      await tx.rollback();
    });
    const outside = client.query<{ n: number }>('SELECT count(*)::int AS n FROM things');
    const reads = Promise.all(Array.from({ length: 20 }, (_, id) => client.query('SELECT $1::int AS id', [id])));
    release();
    await open;
    expect((await outside).rows).toEqual([{ n: 3 }]);
    expect((await reads).map((result) => result.rows[0])).toEqual(Array.from({ length: 20 }, (_, id) => ({ id })));
  });

  it('prepares again a statement whose table changed under it', async () => {
    const sql = 'SELECT * FROM things WHERE id = $1';
    await client.query(sql, [1]);
    await pglite.exec('ALTER TABLE things ADD COLUMN note text');
    // PostgreSQL refuses the old plan once; the statement is then prepared anew.
    await client.query(sql, [1]).catch(() => {});
    expect((await client.query(sql, [1])).rows[0]).toHaveProperty('note', null);
  });
});
