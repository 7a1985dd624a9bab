import { type SQL, sql } from 'drizzle-orm';
import { bigint, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * How many rows the back office's big lists have, in all ('orders') and by status
 * ('orders:pending'), kept by triggers as rows are written (migration 0024): an admin list's
 * total is a few rows' sum, not a count of a million orders or ten million reviews. Each scope
 * is spread over a few shards (a transaction adds to one, by its id) so that concurrent
 * checkouts seldom wait for each other's counter row.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    /** A table's name, or the name and a status ('reviews:approved'). */
    scope: text().notNull(),
    shard: smallint().notNull(),
    rows: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.shard] })],
);

/**
 * The sum of the rows of the scopes in the placeholder `scopes` (an array), as an expression a
 * page's statement selects beside its rows: the page and its list's total then come in one round
 * trip (PostgreSQL runs the sum once, as an init plan).
 */
export function rowCountsSum(): SQL<number> {
  return sql<number>`(SELECT coalesce(sum(${rowCounts.rows}), 0) FROM ${rowCounts} WHERE ${rowCounts.scope} = ANY(${sql.placeholder('scopes')}))`;
}

/** The sum of the scopes' rows: one statement, prepared once per database (its scopes are an array). */
const sumStatements = new WeakMap<Db, ReturnType<typeof prepareSum>>();

function prepareSum(db: Db) {
  return db
    .select({ rows: sql<number>`coalesce(sum(${rowCounts.rows}), 0)`.mapWith(Number) })
    .from(rowCounts)
    .where(sql`${rowCounts.scope} = ANY(${sql.placeholder('scopes')})`)
    .prepare('row_counts_sum');
}

/**
 * The rows of these scopes, added up (scopes that never had a row count 0). Every admin list's
 * unsearched page asks it, beside the page: built and planned each time, it cost PostgreSQL a
 * third of what the page did.
 */
export async function countRows(db: Db, scopes: string[]): Promise<number> {
  let statement = sumStatements.get(db);
  if (!statement) {
    statement = prepareSum(db);
    sumStatements.set(db, statement);
  }
  const [row] = await statement.execute({ scopes });
  return row?.rows ?? 0;
}
