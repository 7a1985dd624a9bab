import { sql } from 'drizzle-orm';
import { type Db, executeRows } from '#server/db/client.ts';
import type { JobDefinition } from '#server/jobs/job-queue.ts';
import {
  addDays,
  type Day,
  dailyPageViewStats,
  dailyPathViews,
  dayOf,
  instant,
  midnightOf,
} from './page-view-stats.ts';

/**
 * A day is rolled up once it has been over for this long: page views wait in memory for up to a
 * second before they are written, and instances' clocks differ a little.
 */
export const ROLLUP_GRACE_MS = 10 * 60 * 1000;
/** Days rolled up per transaction (a first run over years of views stays in short steps). */
const DAYS_PER_STEP = 31;

export const PAGE_VIEW_ROLLUP_JOB = 'dashboard.roll-up-page-views';

/**
 * Rolls up every completed UTC day not rolled up yet: from the day after the latest rolled day
 * (or the first day with views) to the last day that ended at least ROLLUP_GRACE_MS before `now`.
 * Days are written in order, each with its pages, in steps of DAYS_PER_STEP days per transaction;
 * a day already written (by a run on another instance) is left as it is. Answers how many days it covered.
 */
export async function rollUpPageViews(db: Db, now = new Date()): Promise<{ days: number }> {
  const lastComplete = addDays(dayOf(new Date(now.getTime() - ROLLUP_GRACE_MS)), -1);
  const [state] = await executeRows<{ last: Day | null }>(db, sql`SELECT max(day)::text AS last FROM page_view_days`);
  let first: Day | null = state?.last ? addDays(state.last, 1) : null;
  if (first === null) {
    // The first run only: where the views begin (a scan, as the time index keeps no order).
    const [oldest] = await executeRows<{ day: Day | null }>(
      db,
      sql`SELECT (min(created_at) AT TIME ZONE 'UTC')::date::text AS day FROM page_views`,
    );
    if (!oldest?.day) return { days: 0 };
    first = oldest.day;
  }
  let days = 0;
  while (first <= lastComplete) {
    // The earlier of the step's end and the last complete day (YYYY-MM-DD sorts as text).
    const last = [addDays(first, DAYS_PER_STEP - 1), lastComplete].sort()[0] as Day;
    const from = instant(midnightOf(first));
    const to = instant(midnightOf(addDays(last, 1)));
    await db.transaction(async (tx) => {
      // The pages' views of each day, and added to their month's: only the rows this run wrote.
      await tx.execute(sql`
        WITH written AS (
          INSERT INTO page_view_day_paths (day, path, views)
          ${dailyPathViews(from, to)}
          ON CONFLICT (day, path) DO NOTHING
          RETURNING day, path, views
        )
        INSERT INTO page_view_month_paths (month, path, views)
        SELECT date_trunc('month', day::timestamp)::date, path, sum(views)::int FROM written GROUP BY 1, 2
        ON CONFLICT (month, path) DO UPDATE SET views = page_view_month_paths.views + excluded.views`);
      // Every day of the step gets its row, a day without views too: the rolled days have no gap.
      await tx.execute(sql`
        INSERT INTO page_view_days (day, views, visitors, sessions, single_page_sessions, session_ms)
        SELECT d.day, coalesce(st.views, 0), coalesce(st.visitors, 0), coalesce(st.sessions, 0),
               coalesce(st.single_page_sessions, 0), coalesce(st.session_ms, 0)
        FROM (SELECT generate_series(${first}::date, ${last}::date, interval '1 day')::date AS day) AS d
        LEFT JOIN (${dailyPageViewStats(from, to)}) AS st ON st.day = d.day
        ON CONFLICT (day) DO NOTHING`);
    });
    days += (Date.parse(last) - Date.parse(first)) / (24 * 60 * 60 * 1000) + 1;
    first = addDays(last, 1);
  }
  return { days };
}

/** Every 15 minutes: a day is rolled up soon after it ends, and a new instance catches up soon after it starts. */
export function pageViewRollupJob(db: Db): JobDefinition {
  return { name: PAGE_VIEW_ROLLUP_JOB, schedule: '*/15 * * * *', run: () => rollUpPageViews(db) };
}
