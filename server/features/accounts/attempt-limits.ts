import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { attemptCounters } from './accounts.tables.ts';

/** Attempts a client may fail on one key before each further one must wait (1 s, 2 s, 4 s... up to 15 min). */
export const FREE_FAILURES = 5;
export const MAX_BACKOFF_S = 15 * 60;
/** The count over every client that marks a key as under attack, within the window below. */
export const ACCOUNT_ATTACK_FAILURES = 20;
export const ACCOUNT_ATTACK_WINDOW_S = 15 * 60;

/** The count over every client of a key. */
export const EVERY_CLIENT = '*';

/**
 * The sign-in counters' key of an email, known to the shop or not (so both behave alike); the
 * address itself is not stored.
 */
export const loginKey = (email: string) =>
  `login:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

const counters = attemptCounters;
/** Seconds the next attempt must wait after `count` counted attempts (SQL, so the check and the count are one statement). */
const backoffSeconds = sql`least(${MAX_BACKOFF_S}, power(2, greatest(${counters.count} - ${FREE_FAILURES}, 0)))`;
const backoffEnds = sql`${counters.lastAt} + ${backoffSeconds} * interval '1 second'`;

export type Reservation = { allowed: true; earlierFailures: number } | { allowed: false; waitSeconds: number };

/**
 * Counters that stay exact under concurrency: each operation is a single conditional upsert, so
 * twenty parallel requests cannot all read "4 failures so far" and all go ahead.
 */
export function createAttemptLimits({ db }: { db: Db }) {
  /**
   * Counts an attempt of `client` on `key` BEFORE it is evaluated, if the backoff allows one now:
   * the first FREE_FAILURES go at once, each later one waits 2^(n-FREE_FAILURES) s after the
   * previous. The attempt stays counted as a failure unless `clear` is called after a success.
   */
  async function reserve(key: string, client: string): Promise<Reservation> {
    const [row] = await db
      .insert(counters)
      .values({ key, client, count: 1 })
      .onConflictDoUpdate({
        target: [counters.key, counters.client],
        set: { count: sql`${counters.count} + 1`, lastAt: sql`now()` },
        setWhere: sql`${counters.count} < ${FREE_FAILURES} or ${backoffEnds} <= now()`,
      })
      .returning({ count: counters.count });
    if (row) return { allowed: true, earlierFailures: row.count - 1 };
    const [blocked] = await db
      .select({ wait: sql<number>`ceil(extract(epoch from ${backoffEnds} - now()))::int` })
      .from(counters)
      .where(and(eq(counters.key, key), eq(counters.client, client)));
    return { allowed: false, waitSeconds: Math.max(1, blocked?.wait ?? 1) };
  }

  /** After a success: the client starts afresh on this key. */
  async function clear(key: string, client: string): Promise<void> {
    await db.delete(counters).where(and(eq(counters.key, key), eq(counters.client, client)));
  }

  /** Forgets every count of a key (a password was reset). */
  async function clearKey(key: string): Promise<void> {
    await db.delete(counters).where(eq(counters.key, key));
  }

  /** Adds a failure to the count over every client, restarting it when the last one is older than the window. */
  async function recordFailure(key: string): Promise<void> {
    const stale = sql`${counters.lastAt} <= now() - ${ACCOUNT_ATTACK_WINDOW_S} * interval '1 second'`;
    await db
      .insert(counters)
      .values({ key, client: EVERY_CLIENT, count: 1 })
      .onConflictDoUpdate({
        target: [counters.key, counters.client],
        set: { count: sql`case when ${stale} then 1 else ${counters.count} + 1 end`, lastAt: sql`now()` },
      });
  }

  /** Seconds until a key under attack (many failures from any clients lately) cools down; 0 when it is not. */
  async function attackCooldown(key: string): Promise<number> {
    const [row] = await db
      .select({
        wait: sql<number>`ceil(extract(epoch from ${counters.lastAt} + ${ACCOUNT_ATTACK_WINDOW_S} * interval '1 second' - now()))::int`,
      })
      .from(counters)
      .where(
        and(
          eq(counters.key, key),
          eq(counters.client, EVERY_CLIENT),
          sql`${counters.count} >= ${ACCOUNT_ATTACK_FAILURES}`,
        ),
      );
    return Math.max(0, row?.wait ?? 0);
  }

  /**
   * Takes one of `limit` uses per `windowSeconds` on a key (a cap, not a backoff): true when one
   * was left. The window restarts when it has run out.
   */
  async function take(key: string, limit: number, windowSeconds: number): Promise<boolean> {
    const expired = sql`${counters.windowStartedAt} <= now() - ${windowSeconds} * interval '1 second'`;
    const rows = await db
      .insert(counters)
      .values({ key, client: EVERY_CLIENT, count: 1 })
      .onConflictDoUpdate({
        target: [counters.key, counters.client],
        set: {
          count: sql`case when ${expired} then 1 else ${counters.count} + 1 end`,
          windowStartedAt: sql`case when ${expired} then now() else ${counters.windowStartedAt} end`,
          lastAt: sql`now()`,
        },
        setWhere: sql`${expired} or ${counters.count} < ${limit}`,
      })
      .returning({ count: counters.count });
    return rows.length > 0;
  }

  /** Removes counters untouched for a day: every backoff and window is over by then. */
  async function prune(now = new Date()): Promise<number> {
    const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    const removed = await db.delete(counters).where(lt(counters.lastAt, dayAgo)).returning({ key: counters.key });
    return removed.length;
  }

  return { reserve, clear, clearKey, recordFailure, attackCooldown, take, prune };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
