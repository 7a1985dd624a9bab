import { mkdirSync } from 'node:fs';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { isDatabaseUnavailable } from './connection-errors.ts';
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

/**
 * PGlite's shared buffers live in its WebAssembly memory, which never shrinks: at PostgreSQL's
 * default of 128 MB they held about 90 MB of the shop's resident memory after the storefront
 * benchmark. A page outside them is read again from the data folder (the host's file cache).
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/** How long closing waits for the pool's lent-out clients before it gives up on them (ms). */
const POOL_END_WAIT_MS = 5_000;

/**
 * The PostgreSQL pool's limits: a request waits a bounded time for a connection and for each
 * statement, so it fails (and is answered 503, see connection-errors.ts) instead of hanging
 * when the database is down, overloaded or unreachable across the network.
 */
export const POOL_SETTINGS = {
  max: 10,
  /** A connection unused this long is closed (the server's slots are shared by every instance). */
  idleTimeoutMillis: 30_000,
  /** Waiting for a connection, a new one or a free one of the pool, fails after this long. */
  connectionTimeoutMillis: 5_000,
  /** The server cancels a statement running longer than this (error 57014). */
  statement_timeout: 30_000,
  /**
   * The client gives up on an answer after this long: the server's own limit above cannot fire
   * when the network between them is gone. Longer than it, so that one normally answers first.
   */
  query_timeout: 35_000,
  /** Finds a connection whose other end vanished without closing it. */
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
  /** How the shop's connections show in pg_stat_activity, unless the URL or PGAPPNAME names them. */
  fallback_application_name: 'stillwater',
} as const;

/**
 * A PGlite database with the shop's extension (pg_trgm); `startParams` come after PGlite's own.
 * The engine is loaded here, by the embedded database's start only: a shop on PostgreSQL never
 * loads it (issue 15, memory).
 */
export async function createPglite({
  startParams = [],
  ...options
}: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  return PGlite.create({
    ...options,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...startParams],
  });
}

/** Opens the database: PGlite in a folder (or in memory when dir is null), or a PostgreSQL pool. */
export async function openDatabase(
  config: DatabaseConfig,
  options: {
    loadDataDir?: Blob;
    logQuery?: (sql: string, params: unknown[]) => void;
    /** Overrides POOL_SETTINGS' wait for a connection (a test's burst of a thousand requests at once). */
    poolWaitMs?: number;
  } = {},
): Promise<Database> {
  // Every statement the application runs, as Drizzle sends it (the benchmark counts them).
  const logger = options.logQuery ? { logQuery: options.logQuery } : undefined;
  if (config.kind === 'postgres') {
    // The PostgreSQL driver is loaded only in that mode: the embedded database's start does without it.
    const [{ default: pgDriver }, { drizzle: drizzleNodePg, NodePgSession }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
    ]);
    const pool = new pgDriver.Pool({
      connectionString: config.url,
      ...POOL_SETTINGS,
      ...(options.poolWaitMs === undefined ? {} : { connectionTimeoutMillis: options.poolWaitMs }),
      options: `-c pg_trgm.word_similarity_threshold=${WORD_SIMILARITY_THRESHOLD}`,
    });
    // An idle connection that drops (the server restarted, an administrator terminated it) is
    // reported here, outside any query: unheard, it would crash the process. The pool has already
    // let it go and opens a new one when a query needs it.
    pool.on('error', () => {});
    // The pool listens for that only while a connection is idle. One lent out (a transaction
    // between two statements) that drops would raise its error with no one listening, and crash
    // the process too: its next statement fails instead, and the pool discards it when released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzleNodePg({ client: pool, ...drizzleOptions, ...(logger ? { logger } : {}) });
    releaseTransactionClients(db as unknown as { session: unknown }, pool, NodePgSession);
    // pool.end() waits for every client lent out: should one stay lent out (a bug), the close
    // waits at most POOL_END_WAIT_MS, then goes on, rather than never finishing.
    const close = async () => {
      if (pool.ended) return;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, POOL_END_WAIT_MS);
      });
      await Promise.race([pool.end(), waited]);
      clearTimeout(timer);
    };
    return { db, kind: 'postgres', pglite: null, pool, close };
  }
  if (config.dir) mkdirSync(config.dir, { recursive: true });
  const [client, { drizzle: drizzlePglite }, { withPreparedStatements }] = await Promise.all([
    createPglite({
      ...(config.dir ? { dataDir: config.dir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      // The threshold is set at the engine's start, as on a PostgreSQL connection: a SET here was
      // the start's third statement (about 30 ms on a slow machine, issue 15's cold start).
      startParams: [
        '-c',
        `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
        '-c',
        `pg_trgm.word_similarity_threshold=${WORD_SIMILARITY_THRESHOLD}`,
      ],
    }),
    import('drizzle-orm/pglite'),
    import('./pglite-prepared.ts'),
  ]);
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

/**
 * Drizzle's transaction on a pool takes a client, then sends BEGIN outside its try/finally: when
 * the connection dies right there (PostgreSQL restarting, backends terminated under load), the
 * client is never released, and the pool stays one short for good (pool.end() then waits for it
 * forever). Each transaction here takes its client itself and always releases it, destroying it
 * when the database went away under it; Drizzle's session on that one client runs the rest.
 */
function releaseTransactionClients(
  db: { session: unknown },
  pool: pg.Pool,
  NodePgSession: typeof import('drizzle-orm/node-postgres').NodePgSession,
) {
  type Args = ConstructorParameters<typeof NodePgSession>;
  // Drizzle's own fields of the pool's session (private in its types, plain properties at run time).
  const poolSession = db.session as {
    dialect: Args[1];
    schema: Args[2];
    options: Args[3];
    transaction: InstanceType<typeof NodePgSession>['transaction'];
  };
  poolSession.transaction = async (work, config) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const session = new NodePgSession(client, poolSession.dialect, poolSession.schema, poolSession.options);
      return await session.transaction(work, config);
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

/** A statement written in SQL, with its rows: both drivers answer `{ rows }` (PGlite's Results, node-postgres' QueryResult). */
export async function executeRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
