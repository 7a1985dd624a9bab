import { fileURLToPath } from 'node:url';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.ts';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Any fixed number: instances starting together take turns applying migrations.
const MIGRATION_LOCK = 7_114_201;

/** Applies the committed SQL migrations that have not run yet. Safe to call from several instances. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.pool) {
    const client = await database.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
    return;
  }
  if (!database.pglite) throw new Error('no database connection to migrate');
  await migratePglite(drizzlePglite({ client: database.pglite }), { migrationsFolder });
}
