import { readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { appRoot } from '../app-root.ts';
import type { Database } from './client.ts';

const migrationsFolder = path.join(appRoot, 'server/db/migrations');
// Any fixed number: instances starting together take turns applying migrations.
export const MIGRATION_LOCK = 7_114_201;

/** Applies the committed SQL migrations that have not run yet. Safe to call from several instances. */
export async function migrateDatabase(database: Database): Promise<void> {
  // A start on an up-to-date database (most starts) skips Drizzle's migrator, which reads and
  // hashes every migration file (and whose modules the server would load for nothing).
  if (await isUpToDate(database)) return;
  if (database.pool) {
    const [{ drizzle }, { migrate }] = await Promise.all([
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const client = await openMigrationConnection(database.pool);
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrate(drizzle({ client }), { migrationsFolder });
    } finally {
      // Closing the session also releases its advisory lock.
      await client.end().catch(() => {});
    }
    return;
  }
  if (!database.pglite) throw new Error('no database connection to migrate');
  const [{ drizzle }, { migrate }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  await migrate(drizzle({ client: database.pglite }), { migrationsFolder });
}

/**
 * A connection for the migrations alone, with the pool's settings but without its time limits
 * (POOL_SETTINGS in client.ts): they bound a request's statements, but a migration may rightly
 * run longer (an index built on a big table), and an instance waits for the advisory lock while
 * another applies the migrations: cancelled, either would fail the instance's start. The session
 * also lifts any lock_timeout the role or database may set.
 */
export async function openMigrationConnection(pool: pg.Pool): Promise<pg.Client> {
  const { default: pgDriver } = await import('pg');
  const client = new pgDriver.Client({
    ...pool.options,
    // The pool keeps a password given as an option out of its options' enumerable keys.
    password: pool.options.password,
    statement_timeout: undefined,
    query_timeout: undefined,
  });
  // A connection that drops is reported by the statement it fails; unheard, the event would crash the process.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SET statement_timeout = 0; SET lock_timeout = 0');
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return client;
}

/**
 * Whether the database has applied the journal's last migration already: Drizzle's own test
 * (it applies the migrations newer than the latest `created_at` it recorded), from the journal
 * alone. No migrations table yet (a new database) is not up to date.
 */
async function isUpToDate(database: Database): Promise<boolean> {
  const newest = newestMigrationMillis();
  if (newest === null) return false;
  const sql =
    'SELECT created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1';
  try {
    const rows = database.pool
      ? (await database.pool.query<{ created_at: string }>(sql)).rows
      : ((await database.pglite?.query<{ created_at: string }>(sql))?.rows ?? []);
    const applied = rows[0] ? Number(rows[0].created_at) : null;
    return applied !== null && applied >= newest;
  } catch {
    return false;
  }
}

/** The `when` of the journal's last migration (Drizzle's folderMillis), or null when the journal is unreadable. */
function newestMigrationMillis(): number | null {
  try {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries?: { when?: unknown }[];
    };
    const whens = (journal.entries ?? []).map((entry) => entry.when).filter((when) => typeof when === 'number');
    return whens.length > 0 ? Math.max(...whens) : null;
  } catch {
    return null;
  }
}
