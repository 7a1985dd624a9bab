import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { databaseUrl, postgresUrl } from './test-environment.ts';

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: postgresUrl ?? undefined });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A database of the test's own: a copy of the seeded demo shop (PGlite, or PostgreSQL when
 * DATABASE_URL is set), or with `empty: true` a fresh one with nothing in it, not even migrations.
 * Closing it also drops the PostgreSQL copy.
 */
export async function createTestDatabase({
  empty = false,
  poolWaitMs,
  logQuery,
}: {
  empty?: boolean;
  /** How long a PostgreSQL query waits for a pool connection (POOL_SETTINGS by default). */
  poolWaitMs?: number;
  /** Told every statement the application runs (with its parameters). */
  logQuery?: (sql: string, params: unknown[]) => void;
} = {}): Promise<Database> {
  const logging = logQuery ? { logQuery } : {};
  if (!postgresUrl) {
    if (empty) return openDatabase({ kind: 'pglite', dir: null }, logging);
    const dump = await readFile(inject('pgliteSeedDump'));
    return openDatabase({ kind: 'pglite', dir: null }, { loadDataDir: new Blob([dump]), ...logging });
  }
  const name = `sw_test_${randomBytes(6).toString('hex')}`;
  const template = inject('postgresTemplate');
  await withAdmin((admin) =>
    admin.query(`CREATE DATABASE ${name}${empty || !template ? '' : ` TEMPLATE ${template}`}`),
  );
  const database = await openDatabase(
    { kind: 'postgres', url: databaseUrl(name) },
    { ...(poolWaitMs === undefined ? {} : { poolWaitMs }), ...logging },
  );
  let dropped = false;
  return {
    ...database,
    async close() {
      await database.close();
      if (dropped) return;
      dropped = true;
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** A migrated database with no content. */
export async function createMigratedTestDatabase(): Promise<Database> {
  const database = await createTestDatabase({ empty: true });
  await migrateDatabase(database);
  return database;
}
