import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { postgresUrl } from '#server/testing/test-environment.ts';
import { type Database, executeRows } from './client.ts';
import { MIGRATION_LOCK, migrateDatabase, openMigrationConnection } from './migrate.ts';

const migratedTables = (database: Database) =>
  executeRows<{ count: number }>(database.db, sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`);

test('migrates an empty database, and a second run changes nothing', async () => {
  const database = await createTestDatabase({ empty: true });
  try {
    await migrateDatabase(database);
    const [first] = await migratedTables(database);
    expect(first?.count).toBeGreaterThan(0);
    await migrateDatabase(database);
    expect(await migratedTables(database)).toEqual([first]);
  } finally {
    await database.close();
  }
}, 60_000);

/**
 * Issue 16: the pool's statement and query time limits (30 s and 35 s) must not reach the
 * migrations. Here the pool's limits are lowered to a fraction of a second, so the test stays short.
 */
describe.skipIf(!postgresUrl)('the migration connection on PostgreSQL', () => {
  const LIMIT_MS = 300;
  const LONGER_THAN_LIMIT_S = 1;
  const databases: Database[] = [];
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all(databases.map((database) => database.close()));
  });

  /** An empty database whose pool has the shop's settings with much lower time limits. */
  async function databaseWithLowLimits(): Promise<Database> {
    const database = await createTestDatabase({ empty: true });
    databases.push(database);
    const pool = new pg.Pool({
      ...database.pool?.options,
      statement_timeout: LIMIT_MS,
      query_timeout: 2 * LIMIT_MS,
    });
    pools.push(pool);
    return { ...database, pool };
  }

  test('a statement longer than the pool allows is cancelled on the pool, not on the migration connection', async () => {
    const database = await databaseWithLowLimits();
    const pool = database.pool as pg.Pool;
    await expect(pool.query('SELECT pg_sleep($1)', [LONGER_THAN_LIMIT_S])).rejects.toMatchObject({ code: '57014' });
    const client = await openMigrationConnection(pool);
    try {
      await expect(client.query('SELECT pg_sleep($1)', [LONGER_THAN_LIMIT_S])).resolves.toMatchObject({ rowCount: 1 });
      const { rows } = await client.query<{ statement: string; lock: string }>(
        'SELECT current_setting($1) AS statement, current_setting($2) AS lock',
        ['statement_timeout', 'lock_timeout'],
      );
      expect(rows).toEqual([{ statement: '0', lock: '0' }]);
      // The connection keeps the pool's other settings.
      const { rows: threshold } = await client.query<{ value: string }>('SELECT current_setting($1) AS value', [
        'pg_trgm.word_similarity_threshold',
      ]);
      expect(threshold).toEqual([{ value: '0.45' }]);
    } finally {
      await client.end();
    }
  }, 60_000);

  test('an instance waits longer than the pool allows for another instance migrating, then migrates', async () => {
    const database = await databaseWithLowLimits();
    // Another instance applying the migrations: it holds the lock for longer than the limits.
    const other = new pg.Client({ ...database.pool?.options });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const started = Date.now();
      const migrating = migrateDatabase(database);
      const release = new Promise((resolve) => setTimeout(resolve, LONGER_THAN_LIMIT_S * 1000)).then(() =>
        other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]),
      );
      await Promise.all([migrating, release]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(LONGER_THAN_LIMIT_S * 1000);
      const [migrated] = await migratedTables(database);
      expect(migrated?.count).toBeGreaterThan(0);
    } finally {
      await other.end();
    }
  }, 60_000);
});
