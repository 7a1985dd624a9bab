import type { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's autovacuum, for the embedded database. PGlite runs no background workers, so
 * without this its planner statistics would stay as they were when a table was small (a product
 * with 100,000 reviews then gets its reviews sorted in full on every page instead of read from an
 * index), and dead rows would never be reclaimed. The thresholds are PostgreSQL's defaults.
 */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
/** PostgreSQL's autovacuum_naptime. */
const DEFAULT_INTERVAL_MS = 60_000;

type TableActivity = { table: string; changed: number; dead: number; rows: number };

/** What each table needs now: VACUUM (which analyzes too), ANALYZE, or nothing. */
export function maintenanceFor(activity: TableActivity): 'vacuum' | 'analyze' | null {
  const rows = Math.max(activity.rows, 0);
  if (activity.dead > VACUUM_THRESHOLD + VACUUM_SCALE * rows) return 'vacuum';
  if (activity.changed > ANALYZE_THRESHOLD + ANALYZE_SCALE * rows) return 'analyze';
  return null;
}

/** Vacuums and analyzes the tables that need it; answers what was done, table by table. */
export async function maintainEmbeddedDatabase(pglite: PGlite): Promise<{ table: string; action: string }[]> {
  // The counters of recent writes are reported at most once a second; have them reported now.
  await pglite.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await pglite.query<TableActivity>(
    `SELECT s.relname AS "table", s.n_mod_since_analyze::int AS changed, s.n_dead_tup::int AS dead,
       c.reltuples::float8 AS rows
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = 'public'`,
  );
  const done: { table: string; action: string }[] = [];
  for (const activity of rows) {
    const action = maintenanceFor(activity);
    if (!action) continue;
    // The name comes from the catalogue; quoted as an identifier all the same.
    const table = `"public"."${activity.table.replaceAll('"', '""')}"`;
    await pglite.exec(action === 'vacuum' ? `VACUUM (ANALYZE) ${table}` : `ANALYZE ${table}`);
    done.push({ table: activity.table, action });
  }
  return done;
}

/**
 * Runs the maintenance now (a data folder from an earlier run may hold tables never analyzed)
 * and then every minute, until stopped. Failures are reported and the next round tries again.
 */
export function startEmbeddedMaintenance(
  pglite: PGlite,
  { intervalMs = DEFAULT_INTERVAL_MS, onError }: { intervalMs?: number; onError: (error: unknown) => void },
) {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const round = () => {
    if (stopped || pglite.closed) return;
    running = maintainEmbeddedDatabase(pglite).catch(onError);
  };
  round();
  const timer = setInterval(round, intervalMs);
  timer.unref();
  return {
    /** Stops the rounds and waits for one in progress. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
