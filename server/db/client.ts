import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { withPreparedStatements } from './pglite-prepared.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The database handle every service receives: the same type for PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A transaction of the shop's database, as `db.transaction` hands it over. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type DatabaseConfig = { kind: 'pglite'; dir: string | null } | { kind: 'postgres'; url: string };

export type Database = {
  db: Db;
  kind: DatabaseConfig['kind'];
  /** The embedded engine, when the database is PGlite (job queue and tests use it directly). */
  pglite: PGlite | null;
  /** The connection pool, when the database is PostgreSQL. */
  pool: pg.Pool | null;
  close(): Promise<void>;
};

const drizzleOptions = { schema, casing: 'snake_case' } as const;

/**
 * Product search matches words by trigram word similarity (the `<%` operator). A one-letter
 * typo in a short word ("fontain") scores about 0.55, under pg_trgm's default threshold of 0.6,
 * so every connection starts with a lower one.
 */
const WORD_SIMILARITY_THRESHOLD = 0.45;

/** Opens the database: PGlite in a folder (or in memory when dir is null), or a PostgreSQL pool. */
export async function openDatabase(
  config: DatabaseConfig,
  options: { loadDataDir?: Blob; logQuery?: (sql: string, params: unknown[]) => void } = {},
): Promise<Database> {
  // Every statement the application runs, as Drizzle sends it (the benchmark counts them).
  const logger = options.logQuery ? { logQuery: options.logQuery } : undefined;
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 10,
      idleTimeoutMillis: 30_000,
      options: `-c pg_trgm.word_similarity_threshold=${WORD_SIMILARITY_THRESHOLD}`,
    });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = drizzleNodePg({ client: pool, ...drizzleOptions, ...(logger ? { logger } : {}) });
    return { db, kind: 'postgres', pglite: null, pool, close: async () => void (pool.ended || (await pool.end())) };
  }
  if (config.dir) mkdirSync(config.dir, { recursive: true });
  const client = await PGlite.create({
    ...(config.dir ? { dataDir: config.dir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm },
  });
  await client.exec(`SET pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}`);
  return wrapPglite(client, logger);
}

export function wrapPglite(client: PGlite, logger?: { logQuery: (sql: string, params: unknown[]) => void }): Database {
  const db = drizzlePglite({
    client: withPreparedStatements(client),
    ...drizzleOptions,
    ...(logger ? { logger } : {}),
  });
  return {
    db,
    kind: 'pglite',
    pglite: client,
    pool: null,
    close: async () => void (client.closed || (await client.close())),
  };
}

/** A statement written in SQL, with its rows: both drivers answer `{ rows }` (PGlite's Results, node-postgres' QueryResult). */
export async function executeRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
